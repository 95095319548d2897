package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.profilestore.stack.LocalStack.Service;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * A test that takes Cassandra down leaves the next test of its JVM a working shared session: when the outage ends,
 * the stack's clients are connected again. Once, the benchmark's first schema change after such a test waited a
 * minute for a control connection the driver was still backing off from, and failed.
 */
@EnabledIf("io.profilestore.testing.TestStack#canPause")
class OutageRecoveryIT {

    @Test
    void aSchemaChangeRightAfterCassandraCameBackIsAnswered() {
        var session = TestStack.backends().cassandra();
        session.execute("SELECT release_version FROM system.local");

        try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
            assertThatThrownBy(() -> session.execute("SELECT release_version FROM system.local")).as("down")
                    .isInstanceOf(DriverException.class);
        }

        for (String cql : new String[] {"CREATE KEYSPACE IF NOT EXISTS outage_recovery WITH replication ="
                + " {'class': 'SimpleStrategy', 'replication_factor': 1}", "DROP KEYSPACE outage_recovery"}) {
            session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(20)));
        }
        assertThat(session.checkSchemaAgreement()).as("the control connection answers").isTrue();
    }
}
