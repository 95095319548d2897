package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.testing.TestStack;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An outcome that comes once the writer has stopped is counted as not written, not left in a queue nobody reads. */
class AuditOutcomeWriterIT {

    @Test
    void anOutcomeAfterTheStopIsCountedNotWritten() throws Exception {
        var metrics = new MetricRegistry();
        var writer = new AuditOutcomeWriter(new AuditLog(TestStack.backends().postgres(), metrics), new AuditSettings(), metrics);
        writer.start();
        writer.stop();
        long failed = metrics.meter(AuditLog.FAILURES).getCount();

        writer.recordOutcome(List.of(1L, 2L), 200);

        assertThat(metrics.meter(AuditLog.FAILURES).getCount()).isEqualTo(failed + 1);
        assertThat(metrics.getGauges().get(AuditOutcomeWriter.QUEUED).getValue()).isEqualTo(0);
    }
}
