package io.profilestore.contracts;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.AuditGroupWriter;
import io.profilestore.audit.AuditSettings;
import io.profilestore.audit.LookUpRecorder;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * The contract of the look-ups' writer, held against the group writer the service records people's look-ups with
 * ({@code audit.AuditGroupWriter}), on the stack's PostgreSQL with the bundled configuration's settings.
 */
class LookUpRecorderIT extends LookUpRecorderContract {

    private final AuditGroupWriter writer = new AuditGroupWriter(TestStack.backends().postgres(), new AuditSettings(),
            new MetricRegistry());

    LookUpRecorderIT() {
        writer.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        writer.stop();
    }

    @Override
    LookUpRecorder recorder() {
        return writer;
    }

    /** Read as a reader of the trail would, on a connection of its own. */
    @Override
    List<AuditEntry> recorded(String prefix) throws Exception {
        var found = new ArrayList<AuditEntry>();
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT actor, actor_kind, roles, action, request, pids,"
                        + " status, request_id FROM audit_record WHERE request LIKE ? ORDER BY id")) {
            statement.setString(1, prefix + "%");
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(new AuditEntry(null, null, rows.getString(1), rows.getString(2),
                            List.of((String[]) rows.getArray(3).getArray()), rows.getString(4), rows.getString(5),
                            List.of((UUID[]) rows.getArray(6).getArray()), rows.getObject(7, Integer.class),
                            rows.getObject(8, UUID.class)));
                }
            }
        }
        return found;
    }
}
