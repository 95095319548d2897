package io.profilestore.bench;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.profilestore.api.Profile;
import io.profilestore.cassandra.ProfileDao;
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

    private static PreparedStatement asTheService;

    static synchronized PreparedStatement statementAsTheService() {
        if (asTheService == null) {
            asTheService = TestStack.backends().cassandra().prepare(
                    "SELECT " + ProfileDao.PROFILE_COLUMNS + " FROM profiles.profile WHERE pid = ?");
        }
        return asTheService;
    }

    /**
     * The read a GET by pid comes down to, done as the service does it: its columns, waited for on the calling thread
     * (the service's request thread waits so), the row decoded into the profile. Encoding the answer is the service's
     * own work, left to it.
     */
    static int readAsTheService(UUID pid) {
        var row = TestStack.backends().cassandra().executeAsync(statementAsTheService().bind(pid).setIdempotent(true))
                .toCompletableFuture().join().one();
        if (row == null) {
            return 404;
        }
        var profile = new Profile(row.getUuid("pid"), row.getUuid("uid"), row.getLong("version"), row.getString("data"),
                row.getInstant("created_at"), row.getInstant("updated_at"));
        return profile.data() == null ? 500 : 200;
    }

    static CompletableFuture<Integer> read(UUID pid) {
        return TestStack.backends().cassandra().executeAsync(statement().bind(pid).setIdempotent(true))
                .toCompletableFuture().thenApply(rows -> rows.one() == null ? 404 : 200);
    }
}
