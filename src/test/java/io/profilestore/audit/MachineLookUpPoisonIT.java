package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A machine's look-up whose record PostgreSQL refuses whatever is tried (an actor too long for the actor's index)
 * must not hold back the records queued with it, nor every record after it: it is given up, counted as lost, and the
 * writer goes on. Before, the writer retried that group for ever, the queue filled, and every machine look-up was
 * refused (503) until a restart.
 */
class MachineLookUpPoisonIT {

    final MetricRegistry metrics = new MetricRegistry();
    final String run = UUID.randomUUID().toString();
    MachineLookUpWriter writer;

    @AfterEach
    void stop() throws Exception {
        if (writer != null) {
            writer.stop();
        }
    }

    @Test
    void aRecordPostgresqlRefusesForGoodIsGivenUpAndTheOthersAreWritten() throws Exception {
        var settings = new AuditSettings();
        settings.machineSearchLinger = io.dropwizard.util.Duration.milliseconds(200);
        writer = new MachineLookUpWriter(TestStack.backends().postgres(), settings, metrics);
        writer.start();

        writer.record(entry("platform", "before"));
        // past B-tree's largest entry (about 2,700 bytes) in the index on (actor, at), and random, so that compression
        // cannot bring it under: refused on every try
        var actor = new StringBuilder();
        while (actor.length() < 9_000) {
            actor.append(UUID.randomUUID());
        }
        writer.record(entry(actor.toString(), "poison"));
        writer.record(entry("platform", "beside"));

        Awaitility.await("the records beside the refused one").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> recorded().keySet().containsAll(List.of("before", "beside")));
        writer.record(entry("platform", "after"));
        Awaitility.await("a record after it").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> recorded().containsKey("after"));

        assertThat(recorded()).doesNotContainKey("poison").containsEntry("before", 1).containsEntry("beside", 1);
        assertThat(metrics.meter(MachineLookUpWriter.LOST).getCount()).isEqualTo(1);
    }

    private AuditEntry entry(String actor, String request) {
        return new AuditEntry(null, null, actor, "JWT", List.of("platform"), "GET /v1/profiles/{pid}",
                "/poison-test/" + run + "/" + request, List.of(UUID.randomUUID()), 200);
    }

    private Map<String, Integer> recorded() throws SQLException {
        var found = new HashMap<String, Integer>();
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT request, count(*) FROM audit_record WHERE request LIKE ? GROUP BY request")) {
            statement.setString(1, "/poison-test/" + run + "/%");
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1).substring(("/poison-test/" + run + "/").length()), rows.getInt(2));
                }
            }
        }
        return found;
    }
}
