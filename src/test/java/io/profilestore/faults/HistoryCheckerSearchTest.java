package io.profilestore.faults;

import static io.profilestore.faults.CheckerHistories.check;
import static io.profilestore.faults.CheckerHistories.moved;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.faults.CheckerHistories.History;
import io.profilestore.faults.CheckerHistories.State;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The search on histories that a search deciding late, or group by group, would get wrong (from a cold review of the
 * checker): a long profile behind a choice only real time rules out, choices of two groups that fit only together, a
 * read of a write with no answer that lost its version, a recovery that completed a merge long after its request.
 */
class HistoryCheckerSearchTest {

    static final UUID U = UUID.randomUUID();
    static final UUID T = UUID.randomUUID();
    static final UUID P = UUID.randomUUID();
    static final long SECOND = 1_000_000_000L;

    /**
     * A merge answered "pending" whose recovery moved P at version 3, after a put made version 2 once the merge's lease
     * ran out; then ten versions each made by one of two puts with no answer, then 2,000 acknowledged ones. The
     * merge's request could not have made version 3 (it read long before version 2 existed): that is found at version
     * 3, not after trying every choice of the twenty puts.
     */
    @Test
    @Timeout(30)
    void aChoiceRealTimeRulesOutFailsWhereItIsMade() {
        var history = new History().create(P, U, "w1");
        var merge = history.mergePending(T, U);
        history.clock += 6 * SECOND;
        history.put(P, 1, "w2", 2L);
        long finished = history.clock + 10 * SECOND;
        history.clock = finished + SECOND;
        for (long v = 3; v < 13; v++) {
            history.put(P, v, "x" + v, null).put(P, v, "y" + v, null);
        }
        for (long v = 13; v < 2013; v++) {
            history.put(P, v, "a" + v, v + 1);
        }
        var state = new State().profile(P, 2013, T, U, "a2012").user(U, T, T).user(T, null, null)
                .applied(merge, T, U, Map.of(P, moved(U, T, 3)), finished);

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.undecided()).isEmpty();
        assertThat(result.unknowns().either()).as("each pair: either made its version").isEqualTo(20);
    }

    /**
     * Only one of two puts with no answer can have made A's version 2 in real time, and only the other group (B, moved
     * by the same merge, then put) shows it: the groups are searched again together.
     */
    @Test
    void choicesOfTwoGroupsThatFitOnlyTogetherAreFound() {
        var a = UUID.randomUUID();
        var b = UUID.randomUUID();
        var history = new History().create(a, U, "a1").create(b, U, "b1");
        long base = history.clock;
        history.at(base + 200, base + 15_200, "put", List.of(a), null, null, 1L, 0, null, Event.UNKNOWN, Map.of(a, "X"),
                Map.of(), Map.of());
        history.at(base + 50, base + 15_050, "put", List.of(a), null, null, 1L, 0, null, Event.UNKNOWN, Map.of(a, "Y"),
                Map.of(), Map.of());
        var merge = history.at(base + 60, base + 1_000, "merge", List.of(), T, U, null, 200, null, Event.OK, Map.of(),
                Map.of(a, 3L, b, 2L), Map.of());
        history.at(base + 100, base + 110, "put", List.of(b), null, null, 2L, 200, null, Event.OK, Map.of(b, "b3"),
                Map.of(b, 3L), Map.of());
        history.clock = base + 20_000;
        for (long v = 3; v < 6; v++) {
            history.put(a, v, "x" + v, null).put(a, v, "y" + v, null);
        }
        history.put(a, 6, "a7", 7L);
        var state = new State().profile(a, 7, T, U, "a7").profile(b, 3, T, U, "b3").user(U, T, T).user(T, null, null)
                .applied(merge, T, U, Map.of(a, moved(U, T, 3), b, moved(U, T, 2)), base + 1_000);

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.unknowns().applied()).as("Y").isEqualTo(1);
    }

    /**
     * A paused writer's put lands between a newer put's read and its write, both of version 2: a read in between sees
     * the paused one's data at version 2, which the newer one then replaces. No violation; nor when a batch update
     * that landed in part is set right as it stood (the read saw a version that then went back).
     */
    @Test
    void aReadMaySeeAWriteWithNoAnswerThatThenLostItsVersion() {
        var history = new History().create(P, U, "w1");
        long base = history.clock;
        history.at(base + 30, base + 15_030, "put", List.of(P), null, null, 1L, 0, null, Event.UNKNOWN, Map.of(P, "wA"),
                Map.of(), Map.of());
        history.at(base + 100, base + 200, "put", List.of(P), null, null, 1L, 200, null, Event.OK, Map.of(P, "wB"),
                Map.of(P, 2L), Map.of());
        history.at(base + 150, base + 160, "read", List.of(P), U, null, null, 200, null, Event.OK, Map.of(),
                Map.of(P, 2L), Map.of(P, "wA"));
        assertThat(check(history, new State().profile(P, 2, U, U, "wB")).violations()).isEmpty();

        var q = UUID.randomUUID();
        var batch = new History().create(P, U, "w1").create(q, U, "q1");
        long start = batch.clock;
        batch.at(start + 30, start + 15_030, "batchUpdate", List.of(P, q), null, null, null, 0, null, Event.UNKNOWN,
                Map.of(P, "b1", q, "b2"), Map.of(), Map.of());
        batch.events.set(batch.events.size() - 1, withExpected(batch.last(), Map.of(P, 1L, q, 1L)));
        batch.at(start + 100, start + 200, "put", List.of(P), null, null, 1L, 200, null, Event.OK, Map.of(P, "w3"),
                Map.of(P, 2L), Map.of());
        batch.at(start + 150, start + 160, "read", List.of(q), U, null, null, 200, null, Event.OK, Map.of(),
                Map.of(q, 2L), Map.of(q, "b2"));
        var reverted = check(batch, new State().profile(P, 2, U, U, "w3").profile(q, 1, U, U, "q1"));
        assertThat(reverted.violations()).isEmpty();
        assertThat(reverted.lost()).isZero();
    }

    /**
     * A merge answered "pending" whose recovery did not take a profile that a put kept under the source after the
     * merge's lease ran out: the completion must take what the source holds when it reads.
     */
    @Test
    void aRecoveryThatLeftAProfileUnderItsSourceIsFound() {
        var history = new History().create(P, U, "w1");
        var merge = history.mergePending(T, U);
        history.clock += 6 * SECOND;
        history.put(P, 1, "w2", 2L);
        long finished = history.clock + 10 * SECOND;
        history.clock = finished + 4 * SECOND;
        history.read(P, 2, U, "w2");
        var state = new State().profile(P, 2, U, U, "w2").user(U, T, T).user(T, null, null)
                .applied(merge, T, U, Map.of(P, moved(U, T, 2)), finished);

        assertThat(check(history, state).violations())
                .anyMatch(v -> v.contains("merge #2 took what was under " + U + " and not this profile"));
    }

    private static Event withExpected(Event e, Map<UUID, Long> expected) {
        return new Event(e.id(), e.client(), e.op(), e.instance(), e.start(), e.end(), e.pids(), e.uid(), e.source(),
                e.ifMatch(), e.status(), e.problem(), e.outcome(), e.writes(), e.versions(), e.moved(), e.write(), expected,
                e.opId(), e.seen(), e.requestId(), e.skipped());
    }
}
