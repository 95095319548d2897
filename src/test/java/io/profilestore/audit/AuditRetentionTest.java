package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.codahale.metrics.MetricRegistry;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** A sweep that fails is counted, for the alert, and never ends the schedule (it throws nothing). */
class AuditRetentionTest {

    @Test
    void aFailedSweepIsCountedAndThrowsNothing() {
        // a port nothing listens on: the connection is refused at once (SQLSTATE 08001)
        var nowhere = new PGSimpleDataSource();
        nowhere.setServerNames(new String[] {"127.0.0.1"});
        nowhere.setPortNumbers(new int[] {1});
        nowhere.setConnectTimeout(2);
        var metrics = new MetricRegistry();
        var retention = new AuditRetention(nowhere, metrics);

        assertThatCode(retention::sweepLogged).doesNotThrowAnyException();
        assertThatCode(retention::sweepLogged).doesNotThrowAnyException();

        assertThat(metrics.counter("audit.retention.failures").getCount()).isEqualTo(2);
        assertThat(metrics.counter("audit.retention.purged").getCount()).isZero();
    }
}
