package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the report counts against a fault, on a history written by hand: an API process killed while clients keep
 * sending to both instances in turn. No backing service.
 */
class FaultCostTest {

    private static final long SECOND = 1_000_000_000L;
    private static final UUID PID = UUID.randomUUID();

    private final List<Event> history = new ArrayList<>();

    private void add(String op, String instance, double startSeconds, List<UUID> pids, int status, String outcome) {
        long start = Math.round(startSeconds * SECOND);
        history.add(new Event(history.size() + 1, 0, op, instance, start, start + SECOND / 10, pids, null, null, null,
                status, null, outcome, Map.of(), Map.of(), List.of(), null, Map.of(), null, Map.of(), UUID.randomUUID(),
                List.of()));
    }

    @Test
    void aConnectionRefusedAndSentAgainToTheOtherInstanceIsNoErrorWhateverItsOperation() {
        var kill = new Fault.Injected(Fault.API_KILLED, "api-1", 100 * SECOND, 130 * SECOND);
        // in flight when api-1 died, sent just before: no answer
        add("batchUpdate", "api-1", 99.95, List.of(PID), 0, Event.UNKNOWN);
        add("put", "api-1", 100, List.of(PID), 0, Event.UNKNOWN);
        add("read", "api-1", 100, List.of(PID), 0, Event.FAILED);
        // while it is down: a change's attempt and a read's, each refused and sent to api-2, which answers
        add("refused", "api-1", 110, List.of(), 0, Event.FAILED);
        add("put", "api-2", 110, List.of(PID), 200, Event.OK);
        add("read", "api-1", 111, List.of(), 0, Event.FAILED); // how Workload records a GET's refused attempt
        add("read", "api-2", 111, List.of(PID), 200, Event.OK);
        // api-2 under the load of both: a 503 is an error
        add("patch", "api-2", 112, List.of(PID), 503, Event.FAILED);
        add("put", "api-2", 131, List.of(PID), 200, Event.OK);
        // before and after the window
        add("read", "api-1", 99.5, List.of(PID), 200, Event.OK);
        add("read", "api-1", 141, List.of(PID), 0, Event.FAILED);

        var cost = FaultCost.of(kill, List.of(kill), history);

        assertThat(cost.errors()).as("the three in flight and the 503").isEqualTo(4);
        assertThat(cost.refused()).as("attempts refused and sent again").isEqualTo(2);
        assertThat(cost.requests()).as("requests sent").isEqualTo(7);
        assertThat(cost.recovered()).as("from the heal to the end of the first change after it").hasValue(SECOND + SECOND / 10);
    }

    @Test
    void theQuietAfterAFaultEndsWhenTheNextFaultStrikes() {
        var kill = new Fault.Injected(Fault.API_KILLED, "api-1", 100 * SECOND, 130 * SECOND);
        var crash = new Fault.Injected(Fault.POSTGRES_KILLED, "postgres", 136 * SECOND, 144 * SECOND);
        add("put", "api-2", 131, List.of(PID), 200, Event.OK);
        add("put", "api-2", 135.95, List.of(PID), 503, Event.FAILED); // in flight when PostgreSQL was killed
        add("put", "api-2", 137, List.of(PID), 503, Event.FAILED);

        var cost = FaultCost.of(kill, List.of(kill, crash), history);

        assertThat(cost.errors()).as("the crash's errors are its own").isZero();
        assertThat(cost.requests()).isEqualTo(1);
        assertThat(FaultCost.of(crash, List.of(kill, crash), history).errors()).isEqualTo(2);
    }

    @Test
    void whatTheNextFaultCutOffIsItsOwnEvenWhenItStruckJustAfterTheQuiet() {
        var kill = new Fault.Injected(Fault.API_KILLED, "api-1", 100 * SECOND, 130 * SECOND);
        var crash = new Fault.Injected(Fault.POSTGRES_KILLED, "postgres", 140_050_000_000L, 148 * SECOND);
        add("put", "api-2", 139.99, List.of(PID), 503, Event.FAILED); // sent within the kill's quiet, cut off by the crash

        assertThat(FaultCost.of(kill, List.of(kill, crash), history).errors()).isZero();
        assertThat(FaultCost.of(crash, List.of(kill, crash), history).errors()).isEqualTo(1);
    }
}
