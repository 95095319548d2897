package io.profilestore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite;
import io.profilestore.change.VersionKind;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The history's retention in Cassandra: a version replaced by a newer one expires the retention after it was replaced;
 * the newest version, and an erase's, stay.
 */
class VersionRetentionIT {

    @Test
    void aReplacedVersionExpiresAfterTheRetentionAndTheNewestAndAnEraseStay() {
        var config = TestStack.configuration();
        var session = TestStack.backends().cassandra();
        var rows = new ProfileDao(session, config.cassandra.keyspace,
                new IdempotentWriter(session, 2, new MetricRegistry()), Duration.ofSeconds(3));
        var versions = new VersionDao(session, config.cassandra.keyspace);
        var pid = UUID.randomUUID();
        var uid = UUID.randomUUID();
        long t = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        var writer = UUID.randomUUID();
        var first = row(pid, uid, 1, VersionKind.CREATED);
        rows.apply(List.of(new RowWrite.PutProfile(first), new RowWrite.RecordVersion(first, null)), t, writer);
        var second = row(pid, uid, 2, VersionKind.REPLACED);
        rows.apply(List.of(new RowWrite.PutProfile(second), new RowWrite.RecordVersion(second, rows.find(pid).orElseThrow())),
                t + 1, writer);
        var erased = rows.find(pid).orElseThrow().erased(Instant.now(), t + 2);
        rows.apply(List.of(new RowWrite.EraseProfile(pid), new RowWrite.RecordVersion(erased, rows.find(pid).orElseThrow())),
                t + 2, writer);
        assertThat(versions.versions(pid, Long.MAX_VALUE, 10)).extracting(ProfileRow::version).containsExactly(3L, 2L, 1L);

        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(versions.versions(pid, Long.MAX_VALUE, 10)).extracting(ProfileRow::version)
                        .as("the replaced versions expire; the erase stays").containsExactly(3L));
        assertThat(versions.version(pid, 3)).get().extracting(ProfileRow::kind).isEqualTo(VersionKind.ERASED);
    }

    @Test
    void aRetentionCassandraCannotKeepIsRefused() {
        var config = TestStack.configuration();
        var session = TestStack.backends().cassandra();
        var writer = new IdempotentWriter(session, 2, new MetricRegistry());
        assertThatThrownBy(() -> new ProfileDao(session, config.cassandra.keyspace, writer,
                Duration.ofDays(365 * 21))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("20 years");
    }

    private static ProfileRow row(UUID pid, UUID uid, long version, VersionKind kind) {
        return new ProfileRow(pid, uid, uid, version, "{\"v\":" + version + "}", Instant.now(), Instant.now(), 0, null, kind);
    }
}
