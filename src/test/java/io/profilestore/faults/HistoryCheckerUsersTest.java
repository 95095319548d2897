package io.profilestore.faults;

import static io.profilestore.faults.CheckerHistories.check;
import static io.profilestore.faults.CheckerHistories.moved;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.faults.CheckerHistories.History;
import io.profilestore.faults.CheckerHistories.State;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The checker on users and links: the users' rows are the journal's applied merges and unmerges played in order, each
 * naming the change that last changed it; an unmerge brings back what it should; nothing is given to a user merged
 * before; a link is its profile's own, or one a late write left; a profile's users have rows.
 */
class HistoryCheckerUsersTest {

    static final UUID U = UUID.randomUUID();
    static final UUID T = UUID.randomUUID();
    static final UUID X = UUID.randomUUID();
    static final UUID P = UUID.randomUUID();
    static final long SECOND = 1_000_000_000L;

    @Test
    void aUsersRowNamesTheChangeThatLastChangedIt() {
        var history = new History().create(P, U, "w1");
        var create = history.last();
        var merge = history.merge(T, U, Map.of(P, 2L));
        var state = new State().profile(P, 2, T, U, "w1").user(U, T, T, merge.requestId()).user(T, null, null, merge.requestId())
                .applied(merge, T, U, Map.of(P, moved(U, T, 2)), merge.end());
        assertThat(check(history, state).violations()).isEmpty();

        state.user(U, T, T, create.requestId()); // the create made it, but the merge changed it since
        assertThat(check(history, state).violations()).anyMatch(v -> v.startsWith("user: " + U + "'s row says"));
    }

    @Test
    void anUnmergeBringsBackWhatTheMergeTookAndAnUnmergeThatLeftItIsFound() {
        var history = new History().create(P, U, "w1");
        var merge = history.merge(T, U, Map.of(P, 2L));
        history.unmerge(T, U, Map.of(P, 3L));
        var unmerge = history.last();
        var state = new State().profile(P, 3, U, U, "w1").user(T, null, null)
                .applied(merge, T, U, Map.of(P, moved(U, T, 2)), merge.end())
                .applied(unmerge, T, U, Map.of(P, moved(T, U, 3)), unmerge.end());
        assertThat(check(history, state).violations()).isEmpty();

        var left = new History().create(P, U, "w1");
        var merged = left.merge(T, U, Map.of(P, 2L));
        left.unmerge(T, U, Map.of());
        var unmerged = left.last();
        var behind = new State().profile(P, 2, T, U, "w1").user(U, null, null).user(T, null, null)
                .applied(merged, T, U, Map.of(P, moved(U, T, 2)), merged.end())
                .applied(unmerged, T, U, Map.of(), unmerged.end());
        assertThat(check(left, behind).violations())
                .anyMatch(v -> v.contains("unmerge #3 brought back what [" + U + "] held under " + T + " and not this profile"));
    }

    /** A create under a user a merge (acknowledged, or journaled applied well before) had merged: a violation. */
    @Test
    void nothingIsGivenToAUserMergedBefore() {
        var other = UUID.randomUUID();
        var history = new History().create(other, U, "w0");
        var merge = history.mergeWithoutAnswer(T, U);
        history.clock += 60 * SECOND;
        history.create(P, U, "w1");
        var state = new State().profile(other, 2, T, U, "w0").profile(P, 1, U, U, "w1").user(U, T, T).user(T, null, null)
                .applied(merge, T, U, Map.of(other, moved(U, T, 2)), merge.end() + SECOND);

        assertThat(check(history, state).violations())
                .anyMatch(v -> v.startsWith("user: create #3 gave a profile to " + U));
    }

    /**
     * A merge answered "pending" whose recovery dropped P from its journal (a move took P first) and whose batch was
     * replayed late: its link to the target stayed, which its request's id explains. A link an acknowledged change
     * left is not explained: the change that moved the profile away would have removed it.
     */
    @Test
    void aLinkIsItsProfilesOwnOrOneALateWriteLeft() {
        var history = new History().create(P, U, "w1").create(UUID.randomUUID(), X, "wx");
        var merge = history.mergePending(T, U);
        history.clock += 6 * SECOND;
        history.move(P, 1, X, 2);
        var state = new State().profile(P, 2, X, X, "w1").user(U, T, T).user(T, null, null)
                .applied(merge, T, U, Map.of(), history.clock + 10 * SECOND);
        state.profiles.remove(history.events.get(1).pids().get(0));
        state.links.removeIf(link -> !link.pid().equals(P));
        state.links.add(new FinalState.Link(T, P, merge.requestId()));
        var lateBatch = new History();
        lateBatch.events.addAll(history.events.subList(0, 1));
        lateBatch.events.addAll(history.events.subList(2, history.events.size()));
        assertThat(check(lateBatch, state).violations()).isEmpty();

        var moves = new History().create(P, U, "w1").move(P, 1, T, 2);
        var first = moves.last();
        moves.move(P, 2, X, 3);
        var stale = new State().profile(P, 3, X, X, "w1").user(T, null, null);
        stale.links.add(new FinalState.Link(T, P, first.requestId()));
        assertThat(check(moves, stale).violations()).anyMatch(v -> v.startsWith("stray link: user " + T));
    }

    @Test
    void aProfilesUserHasARow() {
        var state = new State().profile(P, 1, U, U, "w1");
        state.users.remove(U);

        assertThat(check(new History().create(P, U, "w1"), state).violations())
                .anyMatch(v -> v.equals("user: profile " + P + " names user " + U + ", which has no row"));
    }
}
