package io.profilestore.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.Profile;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.Lease;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.LockTable;
import io.profilestore.change.Origin;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite.LinkProfile;
import io.profilestore.change.RowWrite.PutNewUser;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.RecordVersion;
import io.profilestore.change.UserRow;
import io.profilestore.change.WritePathProbe;
import io.profilestore.twins.InMemoryLockTable;
import io.profilestore.twins.InMemoryProfileRows;
import io.profilestore.twins.InMemoryStores;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The rules of profile changes, on the real write path ({@link ChangeRunner}) over the lock table and the tables held
 * in memory: what a change writes, at which fence, what it records for the indexer, and that a refused change
 * writes nothing and leaves no lock behind.
 */
class ProfileServiceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BATCH = 3;
    private static final int MAX_PROFILES_PER_USER = 2;
    private static final Origin ORIGIN = InMemoryStores.testOrigin();

    private final InMemoryStores stores = new InMemoryStores();
    private final InMemoryProfileRows tables = stores.rows;
    private final InMemoryLockTable locks = stores.locks;
    private final ProfileService profiles = profiles(WritePathProbe.NONE);

    /** The service over the twins. */
    private ProfileService profiles(WritePathProbe probe) {
        return new ProfileService(tables, stores.changeRunner(probe), new Documents(JSON, 64 * 1024), MAX_BATCH,
                MAX_PROFILES_PER_USER);
    }

    @Test
    void aCreatedProfileStandsAtVersionOneUnderANewUserWrittenInOneWriteAtTheLocksFence() {
        var created = profiles.create(ORIGIN, null, json("{\"surname\": \"Иванов\"}"));

        assertThat(created.version()).isEqualTo(1);
        assertThat(created.data()).isEqualTo("{\"surname\":\"Иванов\"}");
        var write = tables.writes().get(0);
        assertThat(tables.writes()).hasSize(1);
        assertThat(write.rows()).extracting(Object::getClass)
                .containsExactly(PutProfile.class, RecordVersion.class, LinkProfile.class, PutNewUser.class);
        assertThat(tables.find(created.pid())).get().extracting(ProfileRow::written).isEqualTo(write.timestampMicros());
        assertThat(tables.findUser(created.uid())).get().extracting(UserRow::version).isEqualTo(1L);
        assertThat(tables.pidsOfUser(created.uid())).containsExactly(created.pid());
        assertThat(stores.outbox.records()).containsExactly(OutboxRecord.profile(created.pid(), 1, write.timestampMicros()));
        assertThat(locks.isFree(LockTable.profile(created.pid()))).isTrue();
        assertThat(locks.isFree(LockTable.user(created.uid()))).isTrue();
    }

    @Test
    void aProfileIsNotCreatedUnderAUserMergedIntoAnother() {
        var merged = new UserRow(UUID.randomUUID(), UUID.randomUUID(), null, 2, Instant.now(), Instant.now(), 1);
        tables.store(merged);

        assertThatThrownBy(() -> profiles.create(ORIGIN, merged.uid(), json("{}")))
                .isInstanceOfSatisfying(UserMergedException.class,
                        e -> assertThat(e.masterUid()).isEqualTo(merged.masterUid()));
        assertThat(tables.writes()).isEmpty();
        assertThat(stores.outbox.records()).isEmpty();
        assertThat(locks.isFree(LockTable.user(merged.uid()))).isTrue();
    }

    @Test
    void aUserHoldingTheMostProfilesAllowedTakesNoMore() {
        var first = profiles.create(ORIGIN, null, json("{}"));
        profiles.create(ORIGIN, first.uid(), json("{}"));

        assertThatThrownBy(() -> profiles.create(ORIGIN, first.uid(), json("{}")))
                .isInstanceOfSatisfying(UserFullException.class,
                        e -> assertThat(e.limit()).isEqualTo(MAX_PROFILES_PER_USER));
        assertThat(tables.writes()).hasSize(2);
        assertThat(tables.pidsOfUser(first.uid())).hasSize(2);
    }

    /** PUT with If-None-Match: * (an import keeping a system's ids): the pid asked for, under the same rules. */
    @Test
    void aProfileCreatedAtAGivenPidStandsThereAtVersionOneAndAnotherCreateThereIsRefused() {
        var pid = UUID.randomUUID();

        var created = profiles.createAt(ORIGIN, pid, null, json("{\"surname\": \"Иванов\"}"));

        assertThat(created.pid()).isEqualTo(pid);
        assertThat(created.version()).isEqualTo(1);
        assertThat(tables.writes().get(0).rows()).extracting(Object::getClass)
                .containsExactly(PutProfile.class, RecordVersion.class, LinkProfile.class, PutNewUser.class);
        assertThat(tables.pidsOfUser(created.uid())).containsExactly(pid);
        assertThat(stores.outbox.records()).containsExactly(OutboxRecord.profile(pid, 1, tables.writes().get(0).timestampMicros()));

        assertThatThrownBy(() -> profiles.createAt(ORIGIN, pid, null, json("{}")))
                .isInstanceOfSatisfying(ProfileExistsException.class,
                        e -> assertThat(e.currentVersions()).isEqualTo(Map.of(pid, 1L)));
        assertThat(tables.writes()).as("the refused create wrote nothing").hasSize(1);
        assertThat(locks.isFree(LockTable.profile(pid))).isTrue();
    }

    /** A uid nobody has is made, with the profile, so that an import keeps a system's users; one that exists is joined. */
    @Test
    void aProfileCreatedAtAGivenPidJoinsTheUserItNamesOrMakesItWhenNobodyHasIt() {
        var uid = UUID.randomUUID();

        var first = profiles.createAt(ORIGIN, UUID.randomUUID(), uid, json("{}"));
        var second = profiles.createAt(ORIGIN, UUID.randomUUID(), uid, json("{}"));

        assertThat(first.uid()).isEqualTo(uid);
        assertThat(second.uid()).isEqualTo(uid);
        assertThat(tables.findUser(uid)).get().extracting(UserRow::version).isEqualTo(1L);
        assertThat(tables.writes().get(0).rows()).extracting(Object::getClass)
                .containsExactly(PutProfile.class, RecordVersion.class, LinkProfile.class, PutNewUser.class);
        assertThat(tables.writes().get(1).rows()).as("the user exists: not written again").extracting(Object::getClass)
                .containsExactly(PutProfile.class, RecordVersion.class, LinkProfile.class);
        assertThat(tables.pidsOfUser(uid)).containsExactlyInAnyOrder(first.pid(), second.pid());
        assertThatThrownBy(() -> profiles.createAt(ORIGIN, UUID.randomUUID(), uid, json("{}")))
                .isInstanceOf(UserFullException.class);

        var merged = new UserRow(UUID.randomUUID(), UUID.randomUUID(), null, 2, Instant.now(), Instant.now(), 1);
        tables.store(merged);
        assertThatThrownBy(() -> profiles.createAt(ORIGIN, UUID.randomUUID(), merged.uid(), json("{}")))
                .isInstanceOf(UserMergedException.class);
        assertThat(tables.writes()).hasSize(2);
    }

    @Test
    void aPutWithTheCurrentVersionReplacesTheDocumentAndCountsOneMore() {
        var created = profiles.create(ORIGIN, null, json("{\"surname\": \"Иванов\"}"));

        var replaced = profiles.replace(ORIGIN, created.pid(), 1, json("{\"surname\": \"Петров\"}"));

        assertThat(replaced.version()).isEqualTo(2);
        assertThat(replaced.data()).isEqualTo("{\"surname\":\"Петров\"}");
        assertThat(replaced.uid()).isEqualTo(created.uid());
        assertThat(replaced.createdAt()).isEqualTo(created.createdAt());
        long fence = tables.writes().get(1).timestampMicros();
        assertThat(fence).isGreaterThan(tables.writes().get(0).timestampMicros());
        assertThat(tables.find(created.pid())).get().extracting(ProfileRow::version, ProfileRow::data)
                .containsExactly(2L, "{\"surname\":\"Петров\"}");
        assertThat(stores.outbox.records()).last().isEqualTo(OutboxRecord.profile(created.pid(), 2, fence));
    }

    @Test
    void aPutWithAStaleVersionIsRefused() {
        var created = profiles.create(ORIGIN, null, json("{\"surname\": \"Иванов\"}"));
        profiles.replace(ORIGIN, created.pid(), 1, json("{\"surname\": \"Петров\"}"));

        assertThatThrownBy(() -> profiles.replace(ORIGIN, created.pid(), 1, json("{\"surname\": \"Сидоров\"}")))
                .isInstanceOfSatisfying(VersionMismatchException.class,
                        e -> assertThat(e.currentVersions()).isEqualTo(Map.of(created.pid(), 2L)));
        assertThat(tables.writes()).hasSize(2);
        assertThat(stores.outbox.records()).hasSize(2);
        assertThat(tables.find(created.pid())).get().extracting(ProfileRow::data).isEqualTo("{\"surname\":\"Петров\"}");
        assertThat(locks.isFree(LockTable.profile(created.pid()))).isTrue();
    }

    @Test
    void aPatchMergesIntoTheStoredDocumentAsRfc7396Says() throws JsonProcessingException {
        var created = profiles.create(ORIGIN, null, json("{\"surname\": \"Иванов\", \"email\": \"i@example.org\"}"));

        var patched = profiles.patch(ORIGIN, created.pid(), 1, json("{\"email\": null, \"firstName\": \"Иван\"}"));

        assertThat(patched.version()).isEqualTo(2);
        assertThat(JSON.readTree(patched.data())).isEqualTo(json("{\"surname\": \"Иванов\", \"firstName\": \"Иван\"}"));
        assertThat(tables.find(created.pid())).get().extracting(ProfileRow::data).isEqualTo(patched.data());
    }

    @Test
    void anErasedProfileLeavesNeitherItsRowNorItsPlaceInItsUsersListAndItsVersionIsNotReused() {
        var created = profiles.create(ORIGIN, null, json("{}"));

        profiles.erase(ORIGIN, created.pid(), 1);

        assertThat(tables.find(created.pid())).isEmpty();
        assertThat(tables.pidsOfUser(created.uid())).isEmpty();
        long fence = tables.writes().get(1).timestampMicros();
        assertThat(stores.outbox.records()).last().isEqualTo(OutboxRecord.profileErased(created.pid(), 2, fence));
    }

    @Test
    void aBatchUpdateWritesEveryProfileInOneWriteAtOneFence() {
        var a = profiles.create(ORIGIN, null, json("{}"));
        var b = profiles.create(ORIGIN, null, json("{}"));

        var updated = profiles.batchUpdate(ORIGIN, List.of(update(a, "{\"n\": 1}"), update(b, "{\"n\": 2}")));

        assertThat(updated).extracting(Profile::pid, Profile::version)
                .containsExactly(tuple(a.pid(), 2L), tuple(b.pid(), 2L));
        var write = tables.writes().get(2);
        assertThat(tables.writes()).hasSize(3);
        assertThat(write.rows()).extracting(Object::getClass)
                .containsExactly(PutProfile.class, RecordVersion.class, PutProfile.class, RecordVersion.class);
        assertThat(stores.outbox.records()).endsWith(OutboxRecord.profile(a.pid(), 2, write.timestampMicros()),
                OutboxRecord.profile(b.pid(), 2, write.timestampMicros()));
    }

    @Test
    void aBatchUpdateWithOneStaleVersionChangesNoProfile() {
        var a = profiles.create(ORIGIN, null, json("{}"));
        var b = profiles.create(ORIGIN, null, json("{}"));
        profiles.replace(ORIGIN, a.pid(), 1, json("{\"n\": 0}"));

        assertThatThrownBy(() -> profiles.batchUpdate(ORIGIN, List.of(update(a, "{\"n\": 1}"), update(b, "{\"n\": 2}"))))
                .isInstanceOfSatisfying(VersionMismatchException.class,
                        e -> assertThat(e.currentVersions()).isEqualTo(Map.of(a.pid(), 2L)));
        assertThat(tables.writes()).hasSize(3);
        assertThat(tables.find(b.pid())).get().extracting(ProfileRow::version).isEqualTo(1L);
    }

    @Test
    void aBatchUpdateNamingAProfileThatDoesNotExistChangesNoProfile() {
        var a = profiles.create(ORIGIN, null, json("{}"));
        var missing = UUID.randomUUID();

        assertThatThrownBy(() -> profiles.batchUpdate(ORIGIN, List.of(update(a, "{\"n\": 1}"),
                new ProfileService.Update(missing, 1, json("{}")))))
                .isInstanceOfSatisfying(ProfileNotFoundException.class,
                        e -> assertThat(e.pids()).containsExactly(missing));
        assertThat(tables.writes()).hasSize(1);
        assertThat(locks.isFree(LockTable.profile(a.pid()))).isTrue();
    }

    @Test
    void aChangeOfAProfileLockedByAnotherRequestIsRefusedAtOnceAndLocksNoneOfTheOthers() {
        var a = profiles.create(ORIGIN, null, json("{}"));
        var b = profiles.create(ORIGIN, null, json("{}"));
        locks.heldByAnother(LockTable.profile(b.pid()));

        assertThatThrownBy(() -> profiles.batchUpdate(ORIGIN, List.of(update(a, "{\"n\": 1}"), update(b, "{\"n\": 2}"))))
                .isInstanceOfSatisfying(EntitiesLockedException.class,
                        e -> assertThat(e.entities()).containsExactly(LockTable.profile(b.pid())));
        assertThat(tables.writes()).hasSize(2);
        assertThat(locks.isFree(LockTable.profile(a.pid()))).isTrue();
    }

    @Test
    void aChangeIsWrittenAboveTheRowItReplacesEvenWhenTheLockTableIsBehind() {
        // a row written later than the lock table's clock says: its lock rows were lost, or a clock was ahead
        long future = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now().plus(Duration.ofHours(1)));
        var stored = new ProfileRow(UUID.randomUUID(), UUID.randomUUID(), null, 4, "{}", Instant.now(), Instant.now(),
                future);
        tables.store(stored);

        var replaced = profiles.replace(ORIGIN, stored.pid(), 4, json("{\"n\": 5}"));

        assertThat(tables.writes().get(0).timestampMicros()).isGreaterThan(future);
        assertThat(tables.find(stored.pid())).get().extracting(ProfileRow::version).isEqualTo(5L);
        assertThat(replaced.version()).isEqualTo(5);
    }

    @Test
    void aChangeWhoseLocksWereTakenOverBeforeItWasRecordedWritesNothing() {
        var created = profiles.create(ORIGIN, null, json("{}"));
        var probe = new WritePathProbe() {
            @Override
            public void locked(Lease lease) {
                locks.takenOver(lease);
            }
        };

        assertThatThrownBy(() -> profiles(probe).replace(ORIGIN, created.pid(), 1, json("{\"n\": 1}")))
                .isInstanceOfSatisfying(LeaseLostException.class, e -> assertThat(e.maybeWritten()).isFalse());
        assertThat(tables.writes()).hasSize(1);
        assertThat(stores.outbox.records()).hasSize(1);
    }

    @Test
    void aWriteCassandraDidNotConfirmIsNotAcknowledgedAndIsAnnouncedAgainForWhenItLands() {
        var created = profiles.create(ORIGIN, null, json("{}"));
        tables.failNextWrite(new CassandraUnavailableException("timed out", null, true));

        assertThatThrownBy(() -> profiles.replace(ORIGIN, created.pid(), 1, json("{\"n\": 1}")))
                .isInstanceOf(CassandraUnavailableException.class);
        var recorded = stores.outbox.records().get(1);
        assertThat(stores.outbox.records()).as("recorded, then once more for the recheck").containsExactly(
                OutboxRecord.profile(created.pid(), 1, tables.writes().get(0).timestampMicros()), recorded, recorded);
        assertThat(recorded.version()).isEqualTo(2);
    }

    private static ProfileService.Update update(Profile profile, String data) {
        return new ProfileService.Update(profile.pid(), profile.version(), json(data));
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
