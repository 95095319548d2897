package io.profilestore.faults;

import static io.profilestore.faults.CheckerHistories.check;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.faults.CheckerHistories.History;
import io.profilestore.faults.CheckerHistories.State;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The checker on the links of {@code uid_pid}: each profile is listed by the user its row names, and any other link
 * is one a late write left, which its writer ({@code written_by}) must explain. No backing service.
 */
class HistoryCheckerLinksTest {

    static final UUID U = UUID.randomUUID();
    static final UUID W = UUID.randomUUID();
    static final UUID P = UUID.randomUUID();

    /**
     * A profile is listed by the user its row names; another link is one a late write left, and names it: a move with
     * no answer that lost the row to a newer put left its link to its target. A link its writer cannot explain, or a
     * profile its user does not list, is a violation.
     */
    @Test
    void linksAreExplainedByWhoWroteThem() {
        var history = new History().create(P, U, "w1").moveWithoutAnswer(P, 1, W);
        var move = history.last();
        history.put(P, 1, "w2", 2L);
        var state = new State().profile(P, 2, U, U, "w2");
        state.links.add(new FinalState.Link(W, P, move.requestId()));
        assertThat(check(history, state).violations()).isEmpty();

        var unexplained = new State().profile(P, 2, U, U, "w2");
        unexplained.links.add(new FinalState.Link(W, P, UUID.randomUUID()));
        assertThat(check(history, unexplained).violations()).anyMatch(v -> v.startsWith("stray link: user " + W));

        var missing = new State().profile(P, 2, U, U, "w2");
        missing.links.clear();
        assertThat(check(history, missing).violations()).anyMatch(v -> v.startsWith("missing link: profile " + P));
    }

    /**
     * Every write of a profile's row writes its own link at the same fence, a put's too. A put with no answer that
     * read version 1 while a move of it was still unconfirmed, and whose row lost to newer writes, leaves its link to
     * the user the profile had at the version it replaced (above the move's unlink): explained by that user alone.
     * Seed 20261212 of a quick run: a batch update's, reported a violation.
     */
    @Test
    void aLatePutsLinkNamesTheUserOfTheVersionItReplaced() {
        var history = new History().create(P, U, "w1").moveWithoutAnswer(P, 1, W).put(P, 1, "w2", null);
        var latePut = history.last();
        history.put(P, 2, "w3", 3L).read(P, 3, W, "w3");
        var state = new State().profile(P, 3, W, W, "w3");
        state.links.add(new FinalState.Link(U, P, latePut.requestId()));
        assertThat(check(history, state).violations()).isEmpty();

        var elsewhere = new State().profile(P, 3, W, W, "w3");
        var never = UUID.randomUUID();
        elsewhere.links.add(new FinalState.Link(never, P, latePut.requestId()));
        elsewhere.user(never, null, null);
        assertThat(check(history, elsewhere).violations()).anyMatch(v -> v.startsWith("stray link: user " + never));
    }

    /**
     * A put's row write sends its link first, and the row only once the link is confirmed: a put answered "Cassandra
     * is unavailable; nothing was changed" made no version, but its link may have landed, above an unconfirmed move's
     * unlink. Recorded (its change is in the audit trail), it explains that link; never recorded, it wrote nothing.
     */
    @Test
    void aPutRefusedAfterItWasRecordedMayHaveLeftItsLinkAlone() {
        var history = new History().create(P, U, "w1").moveWithoutAnswer(P, 1, W);
        var refused = history.at(history.clock + 1, history.clock + 10, "put", List.of(P), null, null, 1L, 503,
                "cassandra-unavailable", Event.FAILED, Map.of(P, "w2"), Map.of(), Map.of());
        history.put(P, 2, "w3", 3L).read(P, 3, W, "w3");
        var state = new State().profile(P, 3, W, W, "w3");
        state.links.add(new FinalState.Link(U, P, refused.requestId()));
        state.recorded = recordedAll(history);
        assertThat(check(history, state).violations()).isEmpty();

        state.recorded.remove(refused.requestId());
        assertThat(check(history, state).violations()).anyMatch(v -> v.startsWith("stray link: user " + U));
    }

    private static Map<UUID, Long> recordedAll(History history) {
        var recorded = new HashMap<UUID, Long>();
        history.events.forEach(event -> recorded.put(event.requestId(), event.start() + 1));
        return recorded;
    }
}
