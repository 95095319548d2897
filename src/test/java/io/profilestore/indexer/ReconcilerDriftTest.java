package io.profilestore.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What reconcile leaves wrong, which makes the command exit 1 (for a CronJob, a failed Job): drift it did not
 * repair, and profiles no index can hold. The runs themselves are in IndexMaintenanceIT.
 */
class ReconcilerDriftTest {

    static final UUID PID = UUID.randomUUID();

    @Test
    void aDryRunLeavesAllItsDriftUnrepaired() {
        var found = new Reconciler.Drift(3, 3, List.of(PID), List.of(PID), List.of(), List.of(), false, List.of());
        assertThat(found.unrepaired()).isEqualTo(2);
    }

    @Test
    void aRepairLeavesWhatElasticsearchRefused() {
        var repaired = new Reconciler.Drift(3, 3, List.of(PID), List.of(), List.of(PID), List.of(), true, List.of());
        assertThat(repaired.unrepaired()).isZero();
        var refused = new Reconciler.Drift(3, 3, List.of(PID), List.of(), List.of(), List.of(), true, List.of(PID));
        assertThat(refused.unrepaired()).isEqualTo(1);
    }

    @Test
    void anUnreadableProfileStaysWrongEitherWay() {
        for (boolean repair : List.of(true, false)) {
            var drift = new Reconciler.Drift(3, 2, List.of(), List.of(), List.of(), List.of(PID), repair, List.of());
            assertThat(drift.total()).as("not drift").isZero();
            assertThat(drift.unrepaired()).isEqualTo(1);
        }
    }
}
