package io.profilestore.postgres;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks fail fast: a request never queues behind another. Not even behind a transaction that holds a lock row
 * and has not committed yet (another instance taking its locks, a transaction stuck in a pause): the lock
 * statement would wait on that row lock up to the socket timeout and answer 503. It answers 409 at once.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LockWaitIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void aLockRowHeldByAnUncommittedTransactionIsAnsweredAsLocked() throws Exception {
        var api = new Api(APP.getLocalPort());
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var conflicts = APP.getEnvironment().metrics().meter(PostgresLockTable.CONFLICTS);
        long conflictsBefore = conflicts.getCount();

        try (var other = TestStack.backends().postgres().getConnection()) {
            other.setAutoCommit(false);
            try (var statement = other.prepareStatement("SELECT 1 FROM entity_lock WHERE entity = ? FOR UPDATE")) {
                statement.setString(1, "profile:" + pid);
                assertThat(statement.executeQuery().next()).isTrue();
            }

            var reply = api.put(pid, etag(1), "{\"surname\": \"Соколова\"}");

            assertProblem(reply, 409, "locked");
            other.rollback();
        }
        // counted for the alerts (locks_conflicts_total at /prometheus)
        assertThat(conflicts.getCount()).isGreaterThan(conflictsBefore);
        assertThat(api.put(pid, etag(1), "{\"surname\": \"Соколова\"}").status()).as("free again").isEqualTo(200);
    }
}
