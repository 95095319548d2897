package io.profilestore.bench;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.profilestore.testing.TestStack;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** The driver alone: one profile read by pid at QUORUM, as the service reads it. */
final class CassandraBaseline {

    private static PreparedStatement read;

    private CassandraBaseline() {
    }

    static synchronized PreparedStatement statement() {
        if (read == null) {
            read = TestStack.backends().cassandra().prepare(
                    "SELECT pid, uid, version, data, created_at, updated_at, WRITETIME(version) FROM profiles.profile WHERE pid = ?");
        }
        return read;
    }

    static CompletableFuture<Integer> read(UUID pid) {
        return TestStack.backends().cassandra().executeAsync(statement().bind(pid).setIdempotent(true))
                .toCompletableFuture().thenApply(rows -> rows.one() == null ? 404 : 200);
    }
}
