package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite;
import io.profilestore.change.RowWrite.EraseProfile;
import io.profilestore.change.RowWrite.ForgetVersion;
import io.profilestore.change.RowWrite.PurgeVersions;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.RecordVersion;
import io.profilestore.change.VersionKind;
import io.profilestore.change.VersionRows;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the history of profiles must do ({@link VersionRows}, written through {@link ProfileRows#apply}), held alike
 * against the twin ({@code VersionRowsTest}) and Cassandra ({@code VersionRowsIT}): a version is read back as its change
 * made it, newest first and a page at a time; the version it replaced is written again unchanged; a late write of a
 * version loses to a newer one, a forgotten version stays gone to older writes; and the version current at a moment is
 * the newest made by then; a purge leaves nothing, whatever lands late. Expiry after the retention is Cassandra's alone ({@code cassandra.VersionRetentionIT}).
 */
abstract class VersionRowsContract {

    static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123456Z");

    abstract ProfileRows rows();

    abstract VersionRows versions();

    final long t = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    final UUID writer = UUID.randomUUID();
    final UUID pid = UUID.randomUUID();
    final UUID uid = UUID.randomUUID();

    @Test
    void aVersionIsReadBackAsItsChangeMadeItNewestFirst() {
        var first = version(1, VersionKind.CREATED, CREATED);
        var second = version(2, VersionKind.PATCHED, CREATED.plusSeconds(60));
        apply(t, new PutProfile(first), new RecordVersion(first, null));
        apply(t + 10, new PutProfile(second), new RecordVersion(second, read(first)));

        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).containsExactly(
                new ProfileRow(pid, uid, uid, 2, second.data(), ms(CREATED), ms(second.updatedAt()), t + 10, writer,
                        VersionKind.PATCHED),
                new ProfileRow(pid, uid, uid, 1, first.data(), ms(CREATED), ms(CREATED), t + 10, writer,
                        VersionKind.CREATED));
        assertThat(versions().version(pid, 1)).get().extracting(ProfileRow::data, ProfileRow::kind)
                .containsExactly(first.data(), VersionKind.CREATED);
        assertThat(versions().version(pid, 3)).isEmpty();
        assertThat(rows().newestVersion(pid)).get().extracting(ProfileRow::version).isEqualTo(2L);
        assertThat(rows().find(pid)).get().extracting(ProfileRow::kind).isEqualTo(VersionKind.PATCHED);
        assertThat(rows().newestVersion(UUID.randomUUID())).isEmpty();
    }

    @Test
    void versionsArePagedNewestFirstBelowAVersion() {
        for (int version = 1; version <= 5; version++) {
            var row = version(version, VersionKind.REPLACED, CREATED.plusSeconds(version));
            apply(t + version, new PutProfile(row), new RecordVersion(row, null));
        }

        assertThat(versions().versions(pid, Long.MAX_VALUE, 2)).extracting(ProfileRow::version).containsExactly(5L, 4L);
        assertThat(versions().versions(pid, 4, 2)).extracting(ProfileRow::version).containsExactly(3L, 2L);
        assertThat(versions().versions(pid, 2, 2)).extracting(ProfileRow::version).containsExactly(1L);
        assertThat(versions().versions(UUID.randomUUID(), Long.MAX_VALUE, 2)).isEmpty();
    }

    @Test
    void anEraseKeepsAVersionWithoutData() {
        var first = version(1, VersionKind.CREATED, CREATED);
        apply(t, new PutProfile(first), new RecordVersion(first, null));
        var erased = read(first).erased(CREATED.plusSeconds(5), t + 5);
        apply(t + 5, new EraseProfile(pid), new RecordVersion(erased, read(first)));

        assertThat(rows().find(pid)).isEmpty();
        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).extracting(ProfileRow::version, ProfileRow::kind,
                ProfileRow::data).containsExactly(tuple(2L, VersionKind.ERASED, null),
                tuple(1L, VersionKind.CREATED, first.data()));
    }

    @Test
    void aLateWriteOfAVersionLosesAndAForgottenVersionStaysGone() {
        var kept = version(2, VersionKind.REPLACED, CREATED);
        var late = new ProfileRow(pid, uid, uid, 2, "{\"late\":true}", CREATED, CREATED, 0, null, VersionKind.MERGED);
        apply(t + 20, new RecordVersion(kept, null));
        apply(t + 10, new RecordVersion(late, null));
        assertThat(versions().version(pid, 2)).get().extracting(ProfileRow::data).isEqualTo(kept.data());

        var never = version(3, VersionKind.MERGED, CREATED);
        apply(t + 40, new ForgetVersion(pid, 3));
        apply(t + 30, new RecordVersion(never, null));
        assertThat(versions().version(pid, 3)).as("a batch that lands after its version was forgotten").isEmpty();
        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).extracting(ProfileRow::version).containsExactly(2L);

        var made = version(3, VersionKind.PATCHED, CREATED);
        apply(t + 50, new RecordVersion(made, null));
        assertThat(versions().version(pid, 3)).get().extracting(ProfileRow::kind).isEqualTo(VersionKind.PATCHED);
    }

    @Test
    void theVersionCurrentAtAMomentIsTheNewestMadeByThen() {
        var at = CREATED.truncatedTo(ChronoUnit.MILLIS);
        for (int version = 1; version <= 3; version++) {
            var row = version(version, VersionKind.REPLACED, at.plus(Duration.ofMinutes(version)));
            apply(t + version, new PutProfile(row), new RecordVersion(row, null));
        }

        assertThat(versions().asOf(pid, at)).isEmpty();
        assertThat(versions().asOf(pid, at.plus(Duration.ofMinutes(1)))).get().extracting(ProfileRow::version).isEqualTo(1L);
        assertThat(versions().asOf(pid, at.plus(Duration.ofMinutes(2)).minusMillis(1))).get()
                .extracting(ProfileRow::version).isEqualTo(1L);
        assertThat(versions().asOf(pid, at.plus(Duration.ofDays(1)))).get().extracting(ProfileRow::version, ProfileRow::data)
                .containsExactly(3L, "{\"v\":3}");
    }

    @Test
    void aPurgeRemovesEveryVersionBelowItsOwnAndALateWriteOfOneStaysGone() {
        for (int version = 1; version <= 3; version++) {
            var row = version(version, VersionKind.PATCHED, CREATED);
            apply(t + version, new PutProfile(row), new RecordVersion(row, null));
        }
        var purged = new ProfileRow(pid, null, null, 4, null, null, CREATED.plusSeconds(10), 0, null, VersionKind.PURGED);

        apply(t + 10, new EraseProfile(pid), new PurgeVersions(pid, 4), new RecordVersion(purged, null));
        apply(t + 5, new RecordVersion(version(2, VersionKind.PATCHED, CREATED), null));

        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).singleElement().satisfies(left -> {
            assertThat(left.version()).isEqualTo(4);
            assertThat(left.kind()).isEqualTo(VersionKind.PURGED);
            assertThat(left.data()).isNull();
            assertThat(left.uid()).as("no user").isNull();
        });
        assertThat(rows().newestVersion(pid)).get().extracting(ProfileRow::version).isEqualTo(4L);
        var again = version(5, VersionKind.CREATED, CREATED.plusSeconds(20));
        apply(t + 20, new PutProfile(again), new RecordVersion(again, null));
        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).extracting(ProfileRow::version).containsExactly(5L, 4L);
    }

    @Test
    void theStreamsMarkLeavesTheVersionsAboveItOldestFirstAndTheOneAtIt() {
        for (int version = 1; version <= 4; version++) {
            var row = version(version, VersionKind.PATCHED, CREATED);
            apply(t + version, new PutProfile(row), new RecordVersion(row, null));
        }
        assertThat(versions().unstreamed(pid, 100).streamedThrough()).isZero();
        assertThat(versions().unstreamed(pid, 100).previous()).isNull();
        assertThat(versions().unstreamed(pid, 100).versions()).extracting(ProfileRow::version)
                .containsExactly(1L, 2L, 3L, 4L);

        versions().streamedThrough(pid, 2, t + 2);

        var unstreamed = versions().unstreamed(pid, 100);
        assertThat(unstreamed.streamedThrough()).isEqualTo(2);
        assertThat(unstreamed.previous()).extracting(ProfileRow::version, ProfileRow::data).containsExactly(2L, "{\"v\":2}");
        assertThat(unstreamed.versions()).extracting(ProfileRow::version).containsExactly(3L, 4L);
        versions().streamedThrough(pid, 4, t + 4);
        versions().streamedThrough(pid, 3, t + 3);
        assertThat(versions().unstreamed(pid, 100).streamedThrough()).as("an older mark, written late").isEqualTo(4);
        assertThat(versions().unstreamed(pid, 100).versions()).isEmpty();
        assertThat(versions().unstreamed(UUID.randomUUID(), 100).versions()).isEmpty();
    }

    @Test
    void aMarkAloneIsNoVersion() {
        versions().streamedThrough(pid, 3, t);

        assertThat(rows().newestVersion(pid)).isEmpty();
        assertThat(versions().versions(pid, Long.MAX_VALUE, 10)).isEmpty();
        assertThat(versions().unstreamed(pid, 100).versions()).isEmpty();
    }

    private ProfileRow version(long version, VersionKind kind, Instant at) {
        return new ProfileRow(pid, uid, uid, version, "{\"v\":" + version + "}", CREATED, at, 0, null, kind);
    }

    /** A row as the write path reads it back before replacing it: with its writer. */
    private ProfileRow read(ProfileRow made) {
        return new ProfileRow(made.pid(), made.uid(), made.home(), made.version(), made.data(), made.createdAt(),
                made.updatedAt(), 0, writer, made.kind());
    }

    private void apply(long at, RowWrite... writes) {
        rows().apply(List.of(writes), at, writer);
    }

    private static Instant ms(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
