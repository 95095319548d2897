package io.profilestore.contracts;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.cassandra.IdempotentWriter;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ProfileRows;
import io.profilestore.testing.TestStack;

/** The contract of the rows of profiles and users, held against Cassandra ({@code cassandra.ProfileDao}). */
class ProfileRowsIT extends ProfileRowsContract {

    private static ProfileDao dao;

    @Override
    ProfileRows rows() {
        synchronized (ProfileRowsIT.class) {
            if (dao == null) {
                var config = TestStack.configuration();
                var session = TestStack.backends().cassandra();
                dao = new ProfileDao(session, config.cassandra.keyspace,
                        new IdempotentWriter(session, config.profiles.writeAttempts, new MetricRegistry()),
                        config.history.retention.toJavaDuration());
            }
            return dao;
        }
    }
}
