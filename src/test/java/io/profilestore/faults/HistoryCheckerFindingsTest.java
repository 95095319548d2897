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

/**
 * Issue 38's findings of a cold review of the fault checker, each a small history. Findings 1-5 are wrong histories
 * the checker that ranked evidence by rules passed; 6-9 correct ones it failed (a false alarm). Each failed against
 * that checker, written there in its own terms first (commit message of the change that replaced it).
 */
class HistoryCheckerFindingsTest {

    static final UUID U = UUID.randomUUID();
    static final UUID W = UUID.randomUUID();
    static final UUID P = UUID.randomUUID();

    /** 1: an unanswered erase of version 1 cannot excuse a vanished profile an acknowledged put took to version 2. */
    @Test
    void finding1AnUnansweredEraseOfAReplacedVersionDoesNotExcuseAVanishedProfile() {
        var history = new History().create(P, U, "w1").erase(P, 1, Event.UNKNOWN).put(P, 1, "w2", 2L);

        var result = check(history, new State());

        assertThat(result.lost()).isEqualTo(1);
        assertThat(result.violations()).anyMatch(v -> v.startsWith("lost: profile " + P + " is gone, but every erase"));
    }

    /**
     * 2: a merge that left P under its source is found, although a put of P got no answer: the state is judged as
     * check-tables found it, and only what would have produced exactly that state explains it (the same history as
     * the service's finding 10).
     */
    @Test
    void finding2AMergeThatLeftAProfileUnderItsSourceIsFoundWhateverElseNamedIt() {
        var history = new History().create(P, U, "w1");
        var merge = history.merge(W, U, Map.of());
        history.put(P, 1, "w2", null);
        var state = new State().profile(P, 1, U, U, "w1").user(U, W, W).user(W, null, null)
                .journal(merge, "applied", W, U, Map.of(), merge.end());

        assertThat(check(history, state).violations()).singleElement().asString()
                .contains("merge #2 took what was under " + U + " and not this profile");
    }

    /** 3: a create with no answer does not come after an acknowledged move: the profile's own user is the move's. */
    @Test
    void finding3ACreateWithNoAnswerDoesNotExplainAHomeAnAcknowledgedMoveReplaced() {
        var history = new History().createWithoutAnswer(U, "w1");
        history.add("move", List.of(P), W, null, 1L, 200, Event.OK, Map.of(), Map.of(P, 2L), List.of(), null, Map.of());

        assertThat(check(history, new State().profile(P, 2, U, U, "w1")).violations())
                .anyMatch(v -> v.contains("own user " + U + "), but the changes that made its versions leave it under "
                        + W));
    }

    /** 4: what a read saw is checked, and what a merge answered it moved. */
    @Test
    void finding4WhatReadsSawAndWhatMergesListedAreChecked() {
        var history = new History().create(P, U, "w1").put(P, 1, "w2", 2L).put(P, 2, "w3", 3L).read(P, 3, U, "w2");
        assertThat(check(history, new State().profile(P, 3, U, U, "w3")).violations()).as("the read")
                .anyMatch(v -> v.contains("read #4 read write w2 under " + U + " at version 3"));

        var merged = new History().create(P, U, "w1");
        var merge = merged.merge(W, U, Map.of());
        var state = new State().profile(P, 2, W, U, "w1").user(U, W, W)
                .journal(merge, "applied", W, U, Map.of(P, moved(U, W, 2)), null);
        assertThat(check(merged, state).violations()).as("a merge that answered it moved nothing")
                .anyMatch(v -> v.startsWith("merge #2 answered it moved {}"));
    }

    /** 5: a merge's journal planning a version is no proof it made it: the merge never had the profile. */
    @Test
    void finding5AJournalsPlanIsNoProofThatAVersionWasMade() {
        var x = UUID.randomUUID();
        var history = new History().create(P, U, "w1");
        var merge = history.mergeWithoutAnswer(W, x);
        var state = new State().profile(P, 2, U, U, "w1").user(x, W, W).user(W, null, null)
                .journal(merge, "applied", W, x, Map.of(P, moved(x, W, 2)), null);

        assertThat(check(history, state).violations()).anyMatch(v -> v.startsWith("unexplained:"));
    }

    /** 6: two moves with no answer at one If-Match, two erases, or a put and a move the home settles: all pass. */
    @Test
    void finding6ChangesWithNoAnswerAtOneVersionAreSettledByWhatFollows() {
        var moves = new History().create(P, U, "w1").moveWithoutAnswer(P, 1, W).moveWithoutAnswer(P, 1, W);
        var twoMoves = check(moves, new State().profile(P, 2, W, W, "w1"));
        assertThat(twoMoves.violations()).as("two moves").isEmpty();
        assertThat(twoMoves.unknowns().either()).as("either made version 2").isEqualTo(2);

        var erases = new History().create(P, U, "w1").erase(P, 1, Event.UNKNOWN).erase(P, 1, Event.UNKNOWN);
        assertThat(check(erases, new State()).violations()).as("two erases").isEmpty();

        var putAndMove = new History().create(P, U, "w1").put(P, 1, "w2", null).moveWithoutAnswer(P, 1, W)
                .put(P, 2, "w4", 3L);
        var settled = check(putAndMove, new State().profile(P, 3, U, U, "w4"));
        assertThat(settled.violations()).as("a put and a move").isEmpty();
        assertThat(settled.unknowns().applied()).as("the put").isEqualTo(1);
        assertThat(settled.unknowns().notApplied()).as("the move").isEqualTo(1);
    }

    /**
     * 7: a merge with no answer journaled the profile at version 2; a put with no answer made version 2 (a read saw
     * its write), and the merge lost that row; then an acknowledged move. Nothing is lost.
     */
    @Test
    void finding7AStaleJournalPlanDoesNotOutrankARead() {
        var target = UUID.randomUUID();
        var history = new History().create(P, U, "w1");
        var merge = history.mergeWithoutAnswer(W, U);
        history.put(P, 1, "w2", null).read(P, 2, U, "w2").move(P, 2, target, 3);
        var state = new State().profile(P, 3, target, target, "w2").user(U, W, W).user(W, null, null)
                .journal(merge, "applied", W, U, Map.of(P, moved(U, W, 2)), null);

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.lost()).isZero();
    }

    /** 8: the server goes on after its client gave up: a merge recorded 30 s after its request ended happened. */
    @Test
    void finding8AChangeMayTakeEffectAfterItsClientGaveUp() {
        var history = new History().create(P, U, "w1");
        var merge = history.mergeWithoutAnswer(W, U);
        var state = new State().profile(P, 2, W, U, "w1").user(U, W, W).user(W, null, null);
        state.operations.add(new FinalState.Operation(UUID.randomUUID(), merge.requestId(), "merge", W, List.of(U), null,
                "applied", merge.end() + 30_000_000_000L, merge.end() + 31_000_000_000L, Map.of(P, moved(U, W, 2))));

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.unknowns().applied()).isEqualTo(1);
    }

    /**
     * 9: a version check-tables made is no gap: a move with no answer landed after its target was merged, leaving the
     * profile away from its root; the scheduled check put it under the root, as its audit record and the row say.
     */
    @Test
    void finding9AVersionCheckTablesMadeIsNoGap() {
        var root = UUID.randomUUID();
        var repair = UUID.randomUUID();
        var history = new History().create(P, U, "w1").moveWithoutAnswer(P, 1, W);
        var merge = history.merge(root, W, Map.of());
        var state = new State().profile(P, 3, root, W, "w1", repair).user(W, root, root).user(root, null, null)
                .journal(merge, "applied", root, W, Map.of(), null);
        state.systemChanges.add(new FinalState.SystemChange("check-tables", repair, List.of(P), history.clock + 600_000_000_000L));

        var result = check(history, state);

        assertThat(result.violations()).isEmpty();
        assertThat(result.unknowns().applied()).as("the move").isEqualTo(1);
    }
}
