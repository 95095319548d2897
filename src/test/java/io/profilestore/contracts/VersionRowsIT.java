package io.profilestore.contracts;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.cassandra.IdempotentWriter;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.cassandra.VersionDao;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.VersionRows;
import io.profilestore.testing.TestStack;

/** The contract of the history of profiles, held against Cassandra ({@code cassandra.ProfileDao}, {@code VersionDao}). */
class VersionRowsIT extends VersionRowsContract {

    private static ProfileDao dao;
    private static VersionDao versions;

    @Override
    ProfileRows rows() {
        connect();
        return dao;
    }

    @Override
    VersionRows versions() {
        connect();
        return versions;
    }

    private static synchronized void connect() {
        if (dao == null) {
            var config = TestStack.configuration();
            var session = TestStack.backends().cassandra();
            dao = new ProfileDao(session, config.cassandra.keyspace,
                    new IdempotentWriter(session, config.profiles.writeAttempts, new MetricRegistry()),
                    config.history.retention.toJavaDuration());
            versions = new VersionDao(session, config.cassandra.keyspace);
        }
    }
}
