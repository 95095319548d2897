package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A machine's search is answered once its record is queued, never beyond a full queue (the writing itself, against
 * PostgreSQL, is in AuditIT). The writer is not started here: nothing takes from its queue, nothing needs a database.
 */
class MachineLookUpWriterTest {

    final MetricRegistry metrics = new MetricRegistry();

    static AuditEntry search() {
        return new AuditEntry(null, null, "processing-platform", "API_KEY", List.of("platform"), "GET /v1/search",
                "/v1/search?surname=x", List.of(UUID.randomUUID()), 200);
    }

    MachineLookUpWriter writer(int queueSize) {
        var settings = new AuditSettings();
        settings.machineSearchQueueSize = queueSize;
        return new MachineLookUpWriter(null, settings, metrics);
    }

    @Test
    void aFullQueueRefusesTheSearchAtOnceAndCountsIt() {
        var writer = writer(2);
        writer.record(search());
        writer.record(search());

        assertThatThrownBy(() -> writer.record(search())).isInstanceOf(AuditUnavailableException.class);

        assertThat(metrics.getGauges().get(MachineLookUpWriter.QUEUED).getValue()).isEqualTo(2);
        assertThat(metrics.meter(MachineLookUpWriter.REFUSED).getCount()).isEqualTo(1);
        assertThat(metrics.meter(AuditLog.FAILURES).getCount()).as("what the audit alerts read").isEqualTo(1);
    }

    @Test
    void onceStoppedItRefusesAndCountsWhatWasLeftAsLost() throws Exception {
        var writer = writer(10);
        writer.record(search());
        writer.record(search());

        writer.stop();

        assertThat(metrics.meter(MachineLookUpWriter.LOST).getCount()).isEqualTo(2);
        assertThatThrownBy(() -> writer.record(search())).isInstanceOf(AuditUnavailableException.class);
        assertThat(metrics.meter(MachineLookUpWriter.REFUSED).getCount()).isEqualTo(1);
    }
}
