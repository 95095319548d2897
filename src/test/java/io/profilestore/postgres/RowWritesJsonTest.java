package io.profilestore.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserRow;
import io.profilestore.change.VersionKind;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What completes a change is kept as JSON and written again as it was recorded: every kind of write comes back equal,
 * fields as they are. A row with no home of its own reads its user as home ({@link ProfileRow#home}); kept through
 * that accessor it would come back with one, and an unmerge would then no longer take it back to the merged user.
 */
class RowWritesJsonTest {

    private static final Instant AT = Instant.parse("2026-12-06T10:15:30.123456Z");

    @Test
    void everyKindOfWriteComesBackEqual() {
        UUID pid = UUID.randomUUID();
        UUID uid = UUID.randomUUID();
        var made = new ProfileRow(pid, uid, uid, 3, "{\"surname\":\"Орлова\"}", AT, AT, 0);
        var readWithItsWriter = new ProfileRow(pid, uid, uid, 2, "{}", AT, AT, 17, UUID.randomUUID());
        var user = new UserRow(uid, UUID.randomUUID(), UUID.randomUUID(), 4, AT, AT, 0);
        List<RowWrite> writes = List.of(new RowWrite.PutProfile(made), new RowWrite.PutProfile(readWithItsWriter),
                new RowWrite.OwnLink(made), new RowWrite.EraseProfile(pid), new RowWrite.PutUser(user),
                new RowWrite.PutNewUser(uid, AT), new RowWrite.LinkProfile(uid, pid), new RowWrite.UnlinkProfile(uid, pid),
                new RowWrite.RecordVersion(made.madeBy(VersionKind.PATCHED), readWithItsWriter),
                new RowWrite.RecordVersion(made.erased(AT, 18), null), new RowWrite.ForgetVersion(pid, 4),
                new RowWrite.PurgeVersions(pid, 5));

        assertThat(RowWritesJson.writes(RowWritesJson.writes(writes))).isEqualTo(writes);
    }

    @Test
    void aRowWithNoHomeOfItsOwnComesBackWithNone() {
        var noHome = new ProfileRow(UUID.randomUUID(), UUID.randomUUID(), null, 5, "{}", AT, AT, 0);
        assertThat(noHome.home()).as("its user, as the accessor answers").isEqualTo(noHome.uid());

        var back = (RowWrite.PutProfile) RowWritesJson.writes(RowWritesJson.writes(List.of(new RowWrite.PutProfile(noHome))))
                .get(0);

        assertThat(back.row().recordedHome()).isNull();
        assertThat(back.row()).isEqualTo(noHome);
    }

    @Test
    void recordsComeBackEqual() {
        var records = List.of(OutboxRecord.profile(UUID.randomUUID(), 2, 42), OutboxRecord.profileErased(UUID.randomUUID(), 3, 43));

        assertThat(RowWritesJson.records(RowWritesJson.records(records))).isEqualTo(records);
    }
}
