package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The service's rules of users against the reference model: ten thousand random sequences of creates, erases, moves,
 * merges and unmerges through the service over the twins of its stores, compared after every step; and the cases a
 * sequence cannot reach (a batch landing late or seen in part, rows from before trees) on the rules over maps. No
 * backing service: it runs in seconds.
 */
class UsersModelTest {

    static final UsersModel.Limits LIMITS = new UsersModel.Limits(6, 3, 5);

    static UserSettings settings() {
        var settings = new UserSettings();
        settings.maxProfilesPerUser = LIMITS.maxProfilesPerUser();
        settings.maxMergeSources = LIMITS.maxMergeSources();
        settings.maxMergedUsers = LIMITS.maxMergedUsers();
        return settings;
    }

    /**
     * The service itself over the twins of its stores: every operation through the real {@code UserService},
     * {@code ProfileService} and write path, three in ten merges and unmerges killed after their record or their write
     * and completed by the recovery.
     */
    @Test
    void tenThousandRandomSequencesAgreeWithTheModelAtEveryStep() {
        var tally = new UserSequences.Tally();
        for (long seed = 1; seed <= 10_000; seed++) {
            UserSequences.run(new UsersModel(LIMITS), new UsersOnTwins(settings(), seed, tally), seed, 25, tally);
        }

        System.out.println("users model: " + tally);
        assertThat(tally.sequences.get()).isEqualTo(10_000);
        // what the sequences must have reached for the agreement to mean something
        assertThat(tally.of("merge 200")).as("merges done").isGreaterThan(10_000);
        assertThat(tally.of("unmerge 200")).as("unmerges done").isGreaterThan(10_000);
        assertThat(tally.unmergesUnderALaterMerge.get()).as("unmerges of a merge merged on since").isGreaterThan(1_000);
        assertThat(tally.of("unmergeById 200")).as("whole merges undone by their id").isPositive();
        assertThat(tally.of("resumed merge")).as("merges a crash interrupted, completed by the recovery").isPositive();
        assertThat(tally.of("resumed unmerge")).as("unmerges a crash interrupted, completed by the recovery").isPositive();
        assertThat(tally.of("skipped moved")).as("unmerges that left a profile moved by hand").isPositive();
        assertThat(tally.of("skipped erased")).as("unmerges that left an erased profile").isPositive();
        for (String refusal : List.of("merge 422 merge-too-large", "merge 422 user-full", "merge 409 conflict",
                "merge 409 user-merged", "merge 400 invalid-request", "unmerge 404 merge-not-found",
                "move 409 user-merged", "move 412 stale-version", "create 409 user-merged", "create 422 user-full")) {
            assertThat(tally.of(refusal)).as(refusal).isPositive();
        }
    }

    /**
     * A merge recorded and not confirmed gives up its locks, and its source takes a profile before the merge's batch
     * lands late (main's fault suite, 2026-12-05): the recovery then finds the batch landed, and must still move the
     * profile the source took meanwhile under the target, the root of its home's tree.
     */
    @Test
    void aMergeResumedAfterItsBatchLandedLateMovesWhatItsSourceTookMeanwhile() {
        var users = new UsersOnMaps(settings());
        var target = users.create(null);
        var source = users.create(null);
        var meanwhile = new AtomicReference<UsersModel.Answer>();

        users.mergeLandingLate(target.uid(), List.of(source.uid()), () -> meanwhile.set(users.create(source.uid())));

        assertThat(meanwhile.get().status()).as("the source's row did not show the merge yet").isEqualTo(201);
        assertThat(users.userRow(source.uid()).masterUid()).isEqualTo(target.uid());
        assertThat(users.profileRow(meanwhile.get().pid()).uid()).as("under the root of its home's tree")
                .isEqualTo(target.uid());
        assertThat(users.user(target.uid()).versions().keySet())
                .containsExactlyInAnyOrder(target.pid(), source.pid(), meanwhile.get().pid());
        assertThat(users.user(source.uid()).uid()).isEqualTo(target.uid());
    }

    /**
     * uid_pid can list a profile under two users (a late write's link, until check-tables removes it). When both are
     * sources of one merge, the profile's row says which it is under: it moves from that one, and an unmerge of that
     * source brings it back.
     */
    @Test
    void aProfileListedUnderTwoSourcesOfAMergeMovesFromTheOneItsRowNames() {
        var users = new UsersOnMaps(settings());
        var target = users.create(null);
        var owner = users.create(null);
        var other = users.create(null);
        users.strayLink(other.uid(), owner.pid());

        var merged = users.merge(target.uid(), List.of(owner.uid(), other.uid()));

        assertThat(merged.status()).isEqualTo(200);
        assertThat(users.profileRow(owner.pid()).uid()).as("under the root of its home's tree").isEqualTo(target.uid());
        assertThat(merged.moved()).as("by the source it came from").isEqualTo(Map.of(owner.uid(), Set.of(owner.pid()),
                other.uid(), Set.of(other.pid())));
        var unmerged = users.unmerge(target.uid(), owner.uid());
        assertThat(unmerged.moved()).isEqualTo(Map.of(owner.uid(), Set.of(owner.pid())));
        assertThat(users.user(owner.uid()).versions().keySet()).containsExactly(owner.pid());
    }

    /** The same when the merge's batch lands late and the profile was taken meanwhile ({@code LandedResumes}). */
    @Test
    void aMergeWhoseBatchLandedLateMovesAProfileListedUnderTwoOfItsSourcesFromTheOneItsRowNames() {
        var users = new UsersOnMaps(settings());
        var target = users.create(null);
        var owner = users.create(null);
        var other = users.create(null);
        var taken = new AtomicReference<UsersModel.Answer>();

        users.mergeLandingLate(target.uid(), List.of(owner.uid(), other.uid()), () -> {
            taken.set(users.create(owner.uid()));
            users.strayLink(other.uid(), taken.get().pid());
        });

        assertThat(taken.get().status()).isEqualTo(201);
        assertThat(users.profileRow(taken.get().pid()).uid()).as("under the root of its home's tree")
                .isEqualTo(target.uid());
        assertThat(users.user(target.uid()).versions().keySet())
                .containsExactlyInAnyOrder(target.pid(), owner.pid(), other.pid(), taken.get().pid());
    }

    /**
     * A logged batch seen in part lands whole in the end (its batchlog replays the rest). A merge whose batch has moved
     * one profile when the recovery comes, and whose source took another profile meanwhile, stands: the recovery
     * completes it past the limit rather than refuse it (which would have it abandoned, frozen half done).
     */
    @Test
    void aResumedMergeWhoseBatchIsSeenInPartIsCompletedPastTheLimits() {
        var users = new UsersOnMaps(settings());
        var target = users.create(null);
        for (int i = 1; i < LIMITS.maxProfilesPerUser() - 1; i++) {
            users.create(target.uid());
        }
        var source = users.create(null);
        var meanwhile = new AtomicReference<UsersModel.Answer>();

        var merge = users.mergeSeenInPart(target.uid(), List.of(source.uid()), source.pid(),
                () -> meanwhile.set(users.create(source.uid())));

        assertThat(merge.status()).as(merge.toString()).isEqualTo(503);
        assertThat(meanwhile.get().status()).as("the source's row did not show the merge yet").isEqualTo(201);
        assertThat(users.userRow(source.uid()).masterUid()).isEqualTo(target.uid());
        assertThat(users.user(target.uid()).versions()).as("past the limit of %s", LIMITS.maxProfilesPerUser())
                .hasSize(LIMITS.maxProfilesPerUser() + 1).containsKeys(source.pid(), meanwhile.get().pid());
    }

    /** The two orders of the report that opened this: both end where they started. */
    @Test
    void anEarlierMergeUndoneAfterALaterOneEndsWhereItStartedInEitherOrder() {
        for (boolean earlierFirst : List.of(true, false)) {
            var users = new UsersOnMaps(settings());
            var a = users.create(null);
            var b = users.create(null);
            var c = users.create(null);
            assertThat(users.merge(b.uid(), List.of(a.uid())).status()).isEqualTo(200);
            assertThat(users.merge(c.uid(), List.of(b.uid())).status()).isEqualTo(200);

            var first = earlierFirst ? users.unmerge(b.uid(), a.uid()) : users.unmerge(c.uid(), b.uid());
            var second = earlierFirst ? users.unmerge(c.uid(), b.uid()) : users.unmerge(b.uid(), a.uid());

            assertThat(first.skipped()).isEmpty();
            assertThat(second.status()).isEqualTo(200);
            for (var holder : List.of(a, b, c)) {
                var shown = users.user(holder.uid());
                assertThat(shown.uid()).isEqualTo(holder.uid());
                assertThat(shown.versions().keySet()).containsExactly(holder.pid());
                assertThat(users.userRow(holder.uid()).merged()).isFalse();
            }
        }
    }

    /**
     * Two unmerges of one merge, the second looked up before the first ran and locked after it: the second answers as
     * it would after the first (nothing left to undo), not that the users changed.
     */
    @Test
    void anUnmergeOvertakenByAnotherOfTheSameMergeAnswersThatItIsUndoneAlready() {
        var users = new UsersOnMaps(settings());
        var a = users.create(null);
        var b = users.create(null);
        assertThat(users.merge(b.uid(), List.of(a.uid())).status()).isEqualTo(200);

        var late = users.unmergeWith(b.uid(), a.uid(), () -> assertThat(users.unmerge(b.uid(), a.uid()).status()).isEqualTo(200));

        assertThat(late.kind()).isEqualTo("404 merge-not-found");
    }

    /**
     * Merges made by a version before trees (profiles with no home, masters that are parents), then check-tables'
     * pass over the users as after an upgrade: either order of unmerges still ends where everyone started.
     */
    @Test
    void mergesFromBeforeTreesAreUndoneExactlyAfterTheUpgradesCheck() {
        for (boolean earlierFirst : List.of(true, false)) {
            var users = new UsersOnMaps(settings());
            var a = users.legacyCreate(null);
            var b = users.legacyCreate(null);
            var c = users.legacyCreate(null);
            users.legacyMerge(b.uid(), a.uid());
            users.legacyMerge(c.uid(), b.uid());
            users.setMastersToRoots();
            assertThat(users.user(a.uid()).uid()).as("A reads through its root").isEqualTo(c.uid());

            var first = earlierFirst ? users.unmerge(b.uid(), a.uid()) : users.unmerge(c.uid(), b.uid());
            var second = earlierFirst ? users.unmerge(c.uid(), b.uid()) : users.unmerge(b.uid(), a.uid());

            assertThat(first.status()).as(first.toString()).isEqualTo(200);
            assertThat(second.status()).as(second.toString()).isEqualTo(200);
            assertThat(first.skipped()).isEmpty();
            for (var holder : List.of(a, b, c)) {
                var shown = users.user(holder.uid());
                assertThat(shown.uid()).isEqualTo(holder.uid());
                assertThat(shown.versions().keySet()).as("the profile of %s", holder.uid()).containsExactly(holder.pid());
            }
        }
    }

    @Test
    void aChainOfAnyLengthIsReadThroughItsRootInOneStep() {
        var settings = settings();
        settings.maxMergedUsers = 40;
        var users = new UsersOnMaps(settings);
        UUID first = users.create(null).uid();
        UUID previous = first;
        for (int i = 0; i < 30; i++) {
            UUID next = users.create(null).uid();
            users.erase(users.user(next).versions().keySet().iterator().next(), 1);
            assertThat(users.merge(next, List.of(previous)).status()).isEqualTo(200);
            previous = next;
        }

        assertThat(users.userRow(first).masterUid()).as("the row names the root").isEqualTo(previous);
        assertThat(users.user(first).uid()).isEqualTo(previous);
    }
}
