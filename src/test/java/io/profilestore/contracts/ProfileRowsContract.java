package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.change.RowWrite;
import io.profilestore.change.RowWrite.EraseProfile;
import io.profilestore.change.RowWrite.LinkProfile;
import io.profilestore.change.RowWrite.PutNewUser;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.PutUser;
import io.profilestore.change.RowWrite.UnlinkProfile;
import io.profilestore.change.UserRow;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * What the write path relies on in the rows of profiles and users ({@link ProfileRows}), held alike against the twin
 * ({@code ProfileRowsTest}) and Cassandra ({@code ProfileRowsIT}): the newest write of a row or a link wins by its
 * timestamp, a delete leaves a tombstone that beats older writes, a profile row brings its user's link, and who wrote
 * a row is the writer's or the row's own. Every case uses fresh ids, so what else the tables hold does not matter.
 * Two writes of one row at the same timestamp are left out (Cassandra then keeps the larger value of each column):
 * fences never repeat, except a delete beside a write in one change, which is a case here.
 */
abstract class ProfileRowsContract {

    /** A point in time with microseconds, which Cassandra's {@code timestamp} columns do not keep. */
    static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123456Z");
    static final Instant UPDATED = Instant.parse("2024-05-02T11:30:00.654321Z");

    /** The store under test: the same one for every call of a case. */
    abstract ProfileRows rows();

    /** A write timestamp in microseconds, now: the store's rows then look like the service's. */
    final long t = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    final UUID writer = UUID.randomUUID();

    @Test
    void aProfileIsReadBackAsWrittenWithItsTimestampAndItsTimesToTheMillisecond() {
        var row = profile(UUID.randomUUID(), UUID.randomUUID(), 3, null);
        var homeless = new ProfileRow(UUID.randomUUID(), UUID.randomUUID(), null, 1, "{}", CREATED, UPDATED, 0);

        apply(t, new PutProfile(row), new PutProfile(homeless));

        assertThat(rows().find(row.pid())).contains(new ProfileRow(row.pid(), row.uid(), row.home(), 3, row.data(),
                ms(CREATED), ms(UPDATED), t, writer));
        var read = rows().find(homeless.pid()).orElseThrow();
        assertThat(read.recordedHome()).as("a row written without a home is read without one").isNull();
        assertThat(read.home()).isEqualTo(homeless.uid());
        assertThat(rows().find(UUID.randomUUID())).isEmpty();
    }

    @Test
    void anOlderWriteOfAProfileLosesToTheNewerOne() {
        UUID pid = UUID.randomUUID();
        UUID uid = UUID.randomUUID();

        apply(t + 10, new PutProfile(profile(pid, uid, 2, null)));
        apply(t + 5, new PutProfile(profile(pid, uid, 1, null)));
        assertThat(rows().find(pid)).get().extracting(ProfileRow::version, ProfileRow::written).containsExactly(2L, t + 10);

        apply(t + 20, new PutProfile(profile(pid, uid, 3, null)));
        assertThat(rows().find(pid)).get().extracting(ProfileRow::version, ProfileRow::written).containsExactly(3L, t + 20);
    }

    @Test
    void anErasesTombstoneBeatsOlderWritesAndLosesToNewerOnes() {
        UUID pid = UUID.randomUUID();
        UUID uid = UUID.randomUUID();
        apply(t, new PutProfile(profile(pid, uid, 1, null)));

        apply(t + 10, new EraseProfile(pid));
        assertThat(rows().find(pid)).isEmpty();
        apply(t + 5, new PutProfile(profile(pid, uid, 2, null)));
        assertThat(rows().find(pid)).as("a put older than the erase").isEmpty();

        apply(t + 20, new PutProfile(profile(pid, uid, 3, null)));
        apply(t + 15, new EraseProfile(pid));
        assertThat(rows().find(pid)).as("an erase older than the row").get().extracting(ProfileRow::version)
                .isEqualTo(3L);
    }

    @Test
    void atOneTimestampADeleteWinsWhateverTheOrder() {
        UUID uid = UUID.randomUUID();
        UUID erasedFirst = UUID.randomUUID();
        UUID erasedLast = UUID.randomUUID();
        UUID unlinkedFirst = UUID.randomUUID();
        UUID unlinkedLast = UUID.randomUUID();

        apply(t, new EraseProfile(erasedFirst), new PutProfile(profile(erasedFirst, UUID.randomUUID(), 1, null)),
                new PutProfile(profile(erasedLast, UUID.randomUUID(), 1, null)), new EraseProfile(erasedLast),
                new UnlinkProfile(uid, unlinkedFirst), new LinkProfile(uid, unlinkedFirst),
                new LinkProfile(uid, unlinkedLast), new UnlinkProfile(uid, unlinkedLast));

        assertThat(rows().findAll(List.of(erasedFirst, erasedLast))).isEmpty();
        assertThat(rows().pidsOfUser(uid)).isEmpty();
    }

    @Test
    void aProfileRowBringsItsUsersLinkAtItsTimestamp() {
        UUID pid = UUID.randomUUID();
        UUID uid = UUID.randomUUID();
        var link = new Link(uid, pid);

        apply(t + 10, new PutProfile(profile(pid, uid, 1, null)));
        assertThat(rows().existing(List.of(link))).containsExactly(link);

        apply(t + 5, new UnlinkProfile(uid, pid));
        assertThat(rows().existing(List.of(link))).as("an unlink older than the row").containsExactly(link);

        apply(t + 15, new UnlinkProfile(uid, pid));
        assertThat(rows().existing(List.of(link))).as("an unlink newer than the row").isEmpty();
        assertThat(rows().pidsOfUser(uid)).isEmpty();

        apply(t + 12, new PutProfile(profile(pid, uid, 2, null)));
        assertThat(rows().existing(List.of(link))).as("a row older than the unlink: its link loses").isEmpty();
        assertThat(rows().find(pid)).get().extracting(ProfileRow::version).isEqualTo(2L);

        apply(t + 20, new LinkProfile(uid, pid));
        assertThat(rows().pidsOfUser(uid)).containsExactly(pid);
    }

    @Test
    void anOlderWriteOfAUserLosesToTheNewerOne() {
        UUID uid = UUID.randomUUID();
        UUID master = UUID.randomUUID();

        apply(t + 10, new PutNewUser(uid, CREATED));
        assertThat(rows().findUser(uid)).contains(new UserRow(uid, null, null, 1, ms(CREATED), ms(CREATED), t + 10,
                writer));

        apply(t + 5, new PutUser(new UserRow(uid, master, master, 2, CREATED, UPDATED, 0)));
        assertThat(rows().findUser(uid)).get().extracting(UserRow::version).isEqualTo(1L);

        apply(t + 20, new PutUser(new UserRow(uid, master, master, 3, CREATED, UPDATED, 0)));
        assertThat(rows().findUser(uid)).contains(new UserRow(uid, master, master, 3, ms(CREATED), ms(UPDATED), t + 20,
                writer));
        apply(t + 30, new PutUser(new UserRow(uid, null, null, 4, CREATED, UPDATED, 0)));
        assertThat(rows().findUser(uid)).get().extracting(UserRow::masterUid, UserRow::mergedInto, UserRow::version)
                .as("a user merged into nobody again").containsExactly(null, null, 4L);
    }

    @Test
    void aRowWrittenAgainAsItStandsKeepsItsWriter() {
        UUID earlier = UUID.randomUUID();
        var kept = profile(UUID.randomUUID(), UUID.randomUUID(), 1, earlier);
        var unknown = profile(UUID.randomUUID(), UUID.randomUUID(), 1, ProfileRow.NO_WRITER);
        var user = new UserRow(UUID.randomUUID(), null, null, 5, CREATED, UPDATED, t - 100, earlier);
        var made = new UserRow(UUID.randomUUID(), null, null, 1, CREATED, UPDATED, 0);

        apply(t, new PutProfile(kept), new PutProfile(unknown), new PutUser(user), new PutUser(made));

        assertThat(rows().find(kept.pid())).get().extracting(ProfileRow::writtenBy, ProfileRow::written)
                .containsExactly(earlier, t);
        assertThat(rows().find(unknown.pid())).get().extracting(ProfileRow::writtenBy).isEqualTo(ProfileRow.NO_WRITER);
        assertThat(rows().findUser(user.uid())).get().extracting(UserRow::writtenBy, UserRow::written)
                .containsExactly(earlier, t);
        assertThat(rows().findUser(made.uid())).get().extracting(UserRow::writtenBy).isEqualTo(writer);
    }

    @Test
    void findAllAndFindUsersLeaveOutIdsWithoutARow() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID erased = UUID.randomUUID();
        UUID never = UUID.randomUUID();
        UUID user = UUID.randomUUID();
        apply(t, new PutProfile(profile(a, user, 1, null)), new PutProfile(profile(b, user, 1, null)),
                new PutProfile(profile(erased, user, 1, null)), new PutNewUser(user, CREATED));
        apply(t + 1, new EraseProfile(erased));

        var found = rows().findAll(List.of(a, erased, never, b));
        assertThat(found).containsOnlyKeys(a, b);
        assertThat(found.get(a).pid()).isEqualTo(a);
        assertThat(rows().findUsers(List.of(never, user, a))).containsOnlyKeys(user);
        assertThat(rows().findUser(never)).isEmpty();
        assertThat(rows().findAll(List.of())).isEmpty();
    }

    @Test
    void existingAndPidsOfUserSayWhichLinksStand() {
        UUID uid = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        UUID kept = UUID.randomUUID();
        UUID linked = UUID.randomUUID();
        UUID unlinked = UUID.randomUUID();
        UUID elsewhere = UUID.randomUUID();
        apply(t, new PutProfile(profile(kept, uid, 1, null)), new LinkProfile(uid, linked), new LinkProfile(uid, unlinked),
                new PutProfile(profile(elsewhere, other, 1, null)));
        apply(t + 1, new UnlinkProfile(uid, unlinked));

        assertThat(rows().pidsOfUser(uid)).containsExactlyInAnyOrder(kept, linked);
        assertThat(rows().pidsOfUser(other)).containsExactly(elsewhere);
        assertThat(rows().pidsOfUser(UUID.randomUUID())).isEmpty();
        assertThat(rows().existing(List.of(new Link(uid, kept), new Link(uid, unlinked), new Link(uid, elsewhere),
                new Link(other, elsewhere), new Link(uid, linked))))
                .containsExactlyInAnyOrder(new Link(uid, kept), new Link(other, elsewhere), new Link(uid, linked));
    }

    /**
     * A reconcile after an outage asks for thousands of profiles at once: more reads than one connection to a node
     * carries at a time (1,024 in the Cassandra driver) are still answered, not refused for want of a connection.
     */
    @Test
    void thousandsOfRowsAreReadInOneCall() {
        UUID uid = UUID.randomUUID();
        UUID pid = UUID.randomUUID();
        apply(t, new PutNewUser(uid, CREATED), new PutProfile(profile(pid, uid, 1, null)));
        var pids = new ArrayList<UUID>();
        var uids = new ArrayList<UUID>();
        var links = new ArrayList<Link>();
        for (int i = 0; i < 3_000; i++) {
            pids.add(UUID.randomUUID());
            uids.add(UUID.randomUUID());
            links.add(new Link(UUID.randomUUID(), UUID.randomUUID()));
        }
        pids.add(1_500, pid);
        uids.add(1_500, uid);
        links.add(1_500, new Link(uid, pid));

        assertThat(rows().findAll(pids).keySet()).containsExactly(pid);
        assertThat(rows().findUsers(uids).keySet()).containsExactly(uid);
        assertThat(rows().existing(links)).containsExactly(new Link(uid, pid));
    }

    @Test
    void everyRowIsInExactlyOneSliceOfAScan() {
        var pids = new ArrayList<UUID>();
        var uids = new ArrayList<UUID>();
        var writes = new ArrayList<RowWrite>();
        for (int i = 0; i < 12; i++) {
            var uid = UUID.randomUUID();
            var pid = UUID.randomUUID();
            uids.add(uid);
            pids.add(pid);
            writes.add(new PutNewUser(uid, CREATED));
            writes.add(new PutProfile(profile(pid, uid, 1, null)));
        }
        writes.add(new EraseProfile(pids.get(0)));
        apply(t, writes.toArray(RowWrite[]::new));

        for (int slices : List.of(1, 5)) {
            var profiles = new ArrayList<UUID>();
            var users = new ArrayList<UUID>();
            var links = new ArrayList<Link>();
            for (int slice = 0; slice < slices; slice++) {
                rows().scan(slice, slices).forEach(row -> profiles.add(row.pid()));
                rows().scanUsers(slice, slices).forEach(row -> users.add(row.uid()));
                rows().scanLinks(slice, slices).forEach(links::add);
            }
            assertThat(profiles).as("profiles in %d slices", slices).filteredOn(pids::contains)
                    .containsExactlyInAnyOrderElementsOf(pids.subList(1, pids.size()));
            assertThat(users).as("users in %d slices", slices).filteredOn(uids::contains)
                    .containsExactlyInAnyOrderElementsOf(uids);
            assertThat(links).as("links in %d slices", slices).filteredOn(link -> uids.contains(link.uid()))
                    .containsExactlyInAnyOrderElementsOf(
                            pids.stream().map(pid -> new Link(uids.get(pids.indexOf(pid)), pid)).toList());
        }
        UUID first = pids.get(1);
        assertThat(StreamSupport.stream(rows().scan(0, 1).spliterator(), false).filter(row -> row.pid().equals(first)))
                .singleElement().extracting(ProfileRow::written, ProfileRow::writtenBy).containsExactly(t, writer);
    }

    void apply(long at, RowWrite... writes) {
        rows().apply(List.of(writes), at, writer);
    }

    static ProfileRow profile(UUID pid, UUID uid, long version, UUID writtenBy) {
        return new ProfileRow(pid, uid, uid, version, "{\"surname\":\"v" + version + "\"}", CREATED, UPDATED, 0,
                writtenBy);
    }

    static Instant ms(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
