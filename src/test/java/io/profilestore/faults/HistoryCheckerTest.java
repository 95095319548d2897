package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's checker on small histories written by hand: a correct one passes, and each defect planted in the
 * final state is found (a lost write, a version nobody made, a profile under the wrong user, a user merged by
 * nobody, an unknown outcome nothing settles, half a batch, a stray document, a profile nobody made, a repair nothing explains).
 * No backing service.
 */
class HistoryCheckerTest {

    static final UUID U = UUID.randomUUID();
    static final UUID W = UUID.randomUUID();
    static final UUID P = UUID.randomUUID();

    /** A history written step by step, each request after the one before. */
    static final class History {
        final List<Event> events = new ArrayList<>();
        long clock;

        Event add(String op, List<UUID> pids, UUID uid, UUID source, Long ifMatch, int status, String outcome,
                Map<UUID, String> writes, Map<UUID, Long> versions, List<UUID> moved, String write, Map<UUID, String> seen) {
            long start = clock += 10;
            long end = clock += 10;
            var event = new Event(events.size() + 1, 0, op, "api-1", start, end, pids, uid, source, ifMatch, status, null,
                    outcome, writes, versions, moved, write, Map.of(), null, seen);
            events.add(event);
            return event;
        }

        History create(UUID pid, UUID uid, String write) {
            add("create", List.of(pid), uid, null, null, 201, Event.OK, Map.of(pid, write), Map.of(pid, 1L), List.of(),
                    write, Map.of());
            return this;
        }

        History createWithoutAnswer(UUID under, String write) {
            add("create", List.of(), under, null, null, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), write, Map.of());
            return this;
        }

        History put(UUID pid, long ifMatch, String write, Long answered) {
            add("put", List.of(pid), null, null, ifMatch, answered == null ? 0 : 200, answered == null ? Event.UNKNOWN : Event.OK,
                    Map.of(pid, write), answered == null ? Map.of() : Map.of(pid, answered), List.of(), null, Map.of());
            return this;
        }

        History erase(UUID pid, long ifMatch, String outcome) {
            add("erase", List.of(pid), null, null, ifMatch, Event.OK.equals(outcome) ? 204 : 0, outcome, Map.of(),
                    Map.of(), List.of(), null, Map.of());
            return this;
        }

        History move(UUID pid, long ifMatch, UUID target, long answered) {
            add("move", List.of(pid), target, null, ifMatch, 200, Event.OK, Map.of(), Map.of(pid, answered), List.of(),
                    null, Map.of());
            return this;
        }

        /** A batch update of these profiles, each replacing version 1, that got no answer. */
        History batchUpdateWithoutAnswer(Map<UUID, String> writes) {
            long start = clock += 10;
            long end = clock += 10;
            var expected = new HashMap<UUID, Long>();
            writes.keySet().forEach(pid -> expected.put(pid, 1L));
            events.add(new Event(events.size() + 1, 0, "batchUpdate", "api-1", start, end, List.copyOf(writes.keySet()),
                    null, null, null, 0, null, Event.UNKNOWN, writes, Map.of(), List.of(), null, expected, null, Map.of()));
            return this;
        }

        /** A merge that got no answer, from {@code start} to {@code end} (ns). */
        Event mergeWithoutAnswer(UUID target, UUID source) {
            return add("merge", List.of(), target, source, null, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null,
                    Map.of());
        }

        History merge(UUID target, UUID source, Map<UUID, Long> versions) {
            add("merge", List.of(), target, source, null, 200, Event.OK, Map.of(), versions, List.copyOf(versions.keySet()),
                    null, Map.of());
            return this;
        }
    }

    /** A final state: profiles, users, journal, index, and the first check-tables pass's findings. */
    static final class State {
        final Map<UUID, FinalState.Profile> profiles = new HashMap<>();
        final Map<UUID, FinalState.User> users = new HashMap<>();
        final Map<UUID, FinalState.Document> index = new HashMap<>();
        final List<String> repairs = new ArrayList<>();
        final List<FinalState.Operation> operations = new ArrayList<>();

        State profile(UUID pid, long version, UUID uid, UUID home, String write) {
            profiles.put(pid, new FinalState.Profile(version, uid, home, write, "Anna"));
            index.put(pid, new FinalState.Document(version, uid, "Anna"));
            users.putIfAbsent(uid, new FinalState.User(null, null));
            users.putIfAbsent(home, new FinalState.User(null, null));
            return this;
        }

        State user(UUID uid, UUID master, UUID parent) {
            users.put(uid, new FinalState.User(master, parent));
            return this;
        }

        FinalState build() {
            return new FinalState(profiles, users, operations, index, repairs);
        }
    }

    static HistoryChecker.Result check(History history, State state) {
        var built = state.build();
        return HistoryChecker.check(history.events, built, built);
    }

    @Test
    void aCorrectHistoryPasses() {
        var history = new History().create(P, U, "w1").put(P, 1, "w2", 2L).create(UUID.randomUUID(), W, "w3");
        var other = history.events.get(2).pids().get(0);
        var state = new State().profile(P, 2, U, U, "w2").profile(other, 1, W, W, "w3");
        history.merge(U, W, Map.of(other, 2L));
        state.profile(other, 2, U, W, "w3").user(W, U, U);

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.lost()).isZero();
        assertThat(IndexDrift.of(state.build())).isEmpty();
    }

    @Test
    void aLostWriteIsFound() {
        var history = new History().create(P, U, "w1").put(P, 1, "w2", 2L);
        var state = new State().profile(P, 1, U, U, "w1");

        var result = check(history, state);

        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.violations()).anyMatch(v -> v.startsWith("lost: profile " + P + " ends at version 1"));
    }

    @Test
    void aVersionNoChangeMadeIsFound() {
        var history = new History().create(P, U, "w1").put(P, 1, "w2", 2L);
        var state = new State().profile(P, 4, U, U, "w2");

        var result = check(history, state);

        assertThat(result.violations()).anyMatch(v -> v.equals("version gap: profile " + P + " is at version 4, but"
                + " no change that happened made versions [3, 4]"));
    }

    @Test
    void aProfileUnderTheWrongUserIsFound() {
        var history = new History().create(P, U, "w1");
        var state = new State().profile(P, 1, W, W, "w1");

        var result = check(history, state);

        assertThat(result.violations()).anyMatch(v -> v.startsWith("user: profile " + P + " belongs to " + W));
        // and one under a user that is not its own's root
        var inconsistent = new State().profile(P, 1, W, U, "w1");
        assertThat(check(history, inconsistent).violations())
                .anyMatch(v -> v.equals("user: profile " + P + " is under " + W + ", not under " + U + ", the root of its own user " + U));
    }

    @Test
    void aMoveByHandExplainsANewUserAndAMergeExplainsAParent() {
        var history = new History().create(P, U, "w1").move(P, 1, W, 2);
        var state = new State().profile(P, 2, W, W, "w1");
        assertThat(check(history, state).violations()).isEmpty();

        state.user(U, W, W); // U merged into W, which no merge did
        assertThat(check(history, state).violations()).anyMatch(v -> v.startsWith("user: " + U + " is merged into " + W));
    }

    @Test
    void anUnknownOutcomeNothingSettlesIsAViolationAndOneTheDataSettlesIsNot() {
        // a write with no answer replacing version 1, which the profile never went past: it did not happen
        var lonely = check(new History().create(P, U, "w1").put(P, 1, "w2", null), new State().profile(P, 1, U, U, "w1"));
        assertThat(lonely.unknowns().notApplied()).isEqualTo(1);
        assertThat(lonely.violations()).isEmpty();

        // a move with no answer next to a put with no answer, both replacing version 1: which one made version 2
        // decides the profile's user, and nothing tells which
        var history = new History().create(P, U, "w1").put(P, 1, "w2", null);
        history.add("move", List.of(P), W, null, 1L, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null, Map.of());
        history.put(P, 2, "w4", 3L);
        var result = check(history, new State().profile(P, 3, U, U, "w4"));
        assertThat(result.unknowns().unresolved()).hasSize(2);
        assertThat(result.violations()).anyMatch(v -> v.startsWith("unresolved: put #2 of profile " + P));

        // two puts with no answer, both replacing version 1: exactly one made version 2, and which one matters to no
        // invariant: settled as one of a group, not unresolved; a version 3 nobody made is still a gap
        var twoPuts = new History().create(P, U, "w1").put(P, 1, "w2", null).put(P, 1, "w3", null).put(P, 2, "w4", 3L);
        var group = check(twoPuts, new State().profile(P, 3, U, U, "w4"));
        assertThat(group.unknowns().unresolved()).isEmpty();
        assertThat(group.unknowns().oneOfAGroup()).isEqualTo(2);
        assertThat(group.violations()).isEmpty();
        var noThird = new History().create(P, U, "w1").put(P, 1, "w2", null).put(P, 1, "w3", null);
        assertThat(check(noThird, new State().profile(P, 3, U, U, "w3")).violations())
                .anyMatch(v -> v.startsWith("version gap: profile " + P) && v.endsWith("[3]"));

        // one of them alone: it made version 2, however the data reads now
        var alone = new History().create(P, U, "w1").put(P, 1, "w2", null).put(P, 2, "w4", 3L);
        var settled = check(alone, new State().profile(P, 3, U, U, "w4"));
        assertThat(settled.unknowns().unresolved()).isEmpty();
        assertThat(settled.unknowns().applied()).isEqualTo(1);
        assertThat(settled.violations()).isEmpty();
    }

    /**
     * Only one change can replace a version: a put with no answer replacing version 1 did not happen when an erase
     * of version 1 did (acknowledged, or settled as the only erase that could have removed the profile), even though
     * the profile is gone and nothing shows what version 2 held.
     */
    @Test
    void aWriteWithNoAnswerBesideAnEraseOfTheSameVersionThatHappenedDidNot() {
        var acknowledged = check(new History().create(P, U, "w1").put(P, 1, "w2", null).erase(P, 1, Event.OK),
                new State());
        assertThat(acknowledged.unknowns().unresolved()).isEmpty();
        assertThat(acknowledged.unknowns().notApplied()).isEqualTo(1);
        assertThat(acknowledged.violations()).isEmpty();

        var unanswered = check(new History().create(P, U, "w1").put(P, 1, "w2", null).erase(P, 1, Event.UNKNOWN),
                new State());
        assertThat(unanswered.unknowns().unresolved()).isEmpty();
        assertThat(unanswered.unknowns().applied()).as("the erase").isEqualTo(1);
        assertThat(unanswered.unknowns().notApplied()).as("the put").isEqualTo(1);
        assertThat(unanswered.violations()).isEmpty();

        // an erase of version 2 instead: the put made version 2, which the erase removed
        var after = check(new History().create(P, U, "w1").put(P, 1, "w2", null).erase(P, 2, Event.OK), new State());
        assertThat(after.unknowns().applied()).isEqualTo(1);
        assertThat(after.violations()).isEmpty();
    }

    /**
     * A put and a batch update with no answers both replacing version 1 of P: the batch is settled on its other
     * profile Q (version 2 of Q exists, and the batch alone could have made it), so it made version 2 of P as well,
     * and the put did not. Had the batch not happened, the put alone made P's version 2.
     */
    @Test
    void aWriteWithNoAnswerIsSettledByAnotherThatReplacedTheSameVersion() {
        UUID q = UUID.randomUUID();
        var history = new History().create(P, U, "w1").create(q, U, "w2").put(P, 1, "w3", null)
                .batchUpdateWithoutAnswer(Map.of(P, "b1", q, "b2")).put(P, 2, "w4", 3L).put(q, 2, "w5", 3L);

        var result = check(history, new State().profile(P, 3, U, U, "w4").profile(q, 3, U, U, "w5"));

        assertThat(result.unknowns().unresolved()).isEmpty();
        assertThat(result.unknowns().applied()).as("the batch").isEqualTo(1);
        assertThat(result.unknowns().notApplied()).as("the put").isEqualTo(1);
        assertThat(result.violations()).isEmpty();

        var batchFailed = new History().create(P, U, "w1").create(q, U, "w2").put(P, 1, "w3", null)
                .batchUpdateWithoutAnswer(Map.of(P, "b1", q, "b2")).put(P, 2, "w4", 3L);
        var putMadeIt = check(batchFailed, new State().profile(P, 3, U, U, "w4").profile(q, 1, U, U, "w2"));
        assertThat(putMadeIt.unknowns().unresolved()).isEmpty();
        assertThat(putMadeIt.unknowns().applied()).as("the put").isEqualTo(1);
        assertThat(putMadeIt.unknowns().notApplied()).as("the batch").isEqualTo(1);
        assertThat(putMadeIt.violations()).isEmpty();
    }

    /**
     * A batch update that got no answer stands on all its profiles or on none: on P and not on Q (where a newer change
     * made the version it would have made) is half a batch, reported once as such; on neither, it did not happen.
     */
    @Test
    void aBatchStandingOnSomeOfItsProfilesOnlyIsHalfABatch() {
        UUID q = UUID.randomUUID();
        var history = new History().create(P, U, "w1").create(q, U, "w2")
                .batchUpdateWithoutAnswer(Map.of(P, "b1", q, "b2")).put(q, 1, "w3", 2L);

        var half = check(history, new State().profile(P, 2, U, U, "b1").profile(q, 2, U, U, "w3"));
        assertThat(half.violations()).filteredOn(v -> v.startsWith("half a batch: batchUpdate #3")).hasSize(1);
        assertThat(half.violations()).noneMatch(v -> v.startsWith("unresolved"));

        var none = check(history, new State().profile(P, 1, U, U, "w1").profile(q, 2, U, U, "w3"));
        assertThat(none.violations()).isEmpty();
        assertThat(none.unknowns().notApplied()).isEqualTo(1);
    }

    /**
     * A merge that got no answer is settled by the journal: applied, the source's parent and its profile's new user
     * and version are explained; abandoned, they are not. An operation recorded outside the request's time is not
     * taken for it.
     */
    @Test
    void aMergeWithoutAnAnswerIsSettledByTheJournal() {
        var history = new History().create(P, W, "w1");
        var merge = history.mergeWithoutAnswer(U, W);
        var state = new State().profile(P, 2, U, W, "w1").user(W, U, U);

        state.operations.add(new FinalState.Operation(UUID.randomUUID(), "merge", U, List.of(W), null, "applied",
                merge.start() + 5, Map.of(P, 2L)));
        var applied = check(history, state);
        assertThat(applied.violations()).isEmpty();
        assertThat(applied.unknowns().applied()).isEqualTo(1);

        state.operations.set(0, new FinalState.Operation(state.operations.get(0).opId(), "merge", U, List.of(W), null,
                "abandoned", merge.start() + 5, Map.of(P, 2L)));
        assertThat(check(history, state).violations()).as("abandoned, yet W is merged and P moved")
                .anyMatch(v -> v.startsWith("user: " + W + " is merged into " + U))
                .anyMatch(v -> v.startsWith("version gap: profile " + P));

        state.operations.set(0, new FinalState.Operation(state.operations.get(0).opId(), "merge", U, List.of(W), null,
                "applied", merge.end() + 60_000_000_000L, Map.of(P, 2L)));
        assertThat(check(history, state).unknowns().notApplied()).as("recorded a minute after: another request's")
                .isEqualTo(1);
    }

    /**
     * A move with no answer whose batch lands late, and a merge of the profile's old user planned in between from the
     * rows as they were: the journal lists the profile at the version the move made (planned, and never the merge's to
     * give), the later answers show that version existed, and the profile's own user is the move's target, which
     * nothing but that move gave it. The move happened (from the fault suite's run of 2026-12-05, moves 1433 and 1462).
     */
    @Test
    void aMoveWithNoAnswerIsNotUndoneByAMergePlannedFromTheRowsBeforeIt() {
        var x = UUID.randomUUID();
        var history = new History().create(P, U, "w1");
        var move = history.add("move", List.of(P), W, null, 1L, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null,
                Map.of());
        var merge = history.mergeWithoutAnswer(x, U);
        history.put(P, 2, "w3", 3L);
        var state = new State().profile(P, 3, W, W, "w3").user(U, x, x).user(x, null, null);
        state.operations.add(new FinalState.Operation(UUID.randomUUID(), "merge", x, List.of(U), null, "applied",
                merge.start() + 5, Map.of(P, 2L)));

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(UnknownOutcomes.resolve(history.events, state.build()).happened(move)).isTrue();

        // had the profile's own user stayed U, the merge's plan stands, and the move did not happen
        var stayed = new State().profile(P, 3, x, U, "w3").user(U, x, x).user(x, null, null);
        stayed.operations.addAll(state.operations);
        assertThat(UnknownOutcomes.resolve(history.events, stayed.build()).happened(move)).isFalse();
        assertThat(check(history, stayed).violations()).isEmpty();

        // an acknowledged merge that moved the profile at that version outweighs the home: a move that beat a merge's
        // write is a violation still
        var answered = new History().create(P, U, "w1");
        answered.add("move", List.of(P), W, null, 1L, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null, Map.of());
        answered.merge(x, U, Map.of(P, 2L));
        answered.put(P, 2, "w3", 3L);
        assertThat(check(answered, state).violations()).anyMatch(v -> v.startsWith("user: profile " + P + " belongs to " + W));
    }

    /**
     * The move with no answer is the last placement that may have given the profile its own user although an earlier
     * move by hand gave it the same one: a later acknowledged move took it away in between.
     */
    @Test
    void aMoveWithNoAnswerBackToAnEarlierHomeIsNotUndoneByAPlannedMerge() {
        var x = UUID.randomUUID();
        var history = new History().create(P, U, "w1").move(P, 1, W, 2).move(P, 2, U, 3);
        var move = history.add("move", List.of(P), W, null, 3L, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null,
                Map.of());
        var merge = history.mergeWithoutAnswer(x, U);
        history.put(P, 4, "w5", 5L);
        var state = new State().profile(P, 5, W, W, "w5").user(U, x, x).user(x, null, null);
        state.operations.add(new FinalState.Operation(UUID.randomUUID(), "merge", x, List.of(U), null, "applied",
                merge.start() + 5, Map.of(P, 4L)));

        assertThat(check(history, state).violations()).isEmpty();
        assertThat(UnknownOutcomes.resolve(history.events, state.build()).happened(move)).isTrue();
    }

    @Test
    void aStrayDocumentAndAStaleOneAreDrift() {
        var state = new State().profile(P, 2, U, U, "w2");
        state.index.put(UUID.randomUUID(), new FinalState.Document(1, U, "Anna"));
        state.index.put(P, new FinalState.Document(2, U, "Olga"));

        assertThat(IndexDrift.of(state.build())).hasSize(2)
                .anyMatch(d -> d.endsWith("stands for no profile"))
                .anyMatch(d -> d.equals("profile " + P + " holds first name Anna, its document Olga"));
    }

    @Test
    void aProfileNobodyMadeIsFoundAndOneACreateWithoutAnAnswerMadeIsNot() {
        var stray = UUID.randomUUID();
        var state = new State().profile(stray, 1, U, U, "c7-1");

        assertThat(check(new History(), state).violations())
                .anyMatch(v -> v.startsWith("profile " + stray + " is in Cassandra, but no answer named it"));
        var made = check(new History().createWithoutAnswer(U, "c7-1"), state);
        assertThat(made.violations()).isEmpty();
        assertThat(made.unknowns().applied()).isEqualTo(1);
    }

    @Test
    void aRepairNoLateWriteExplainsIsAViolation() {
        var history = new History().create(P, U, "w1");
        var state = new State().profile(P, 1, U, U, "w1");
        state.repairs.add("stray link: user " + W + " lists profile " + P + " (repaired)");

        var result = check(history, state);

        assertThat(result.violations()).anyMatch(v -> v.startsWith("check-tables found stray link: user " + W));
        assertThat(result.repairsExplained()).isZero();

        history.put(P, 1, "w2", null); // a write with no answer: it may have landed late
        state.profile(P, 2, U, U, "w2");
        var explained = check(history, state);
        assertThat(explained.repairsExplained()).isEqualTo(1);
        assertThat(explained.violations()).noneMatch(v -> v.startsWith("check-tables"));
    }
}
