package io.profilestore.testing;

import com.datastax.oss.driver.api.core.CqlSession;
import io.profilestore.stack.Endpoints;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.stack.Stack;
import io.profilestore.stack.StackMode;
import java.time.Duration;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * The stack as the tests see it: when Cassandra comes back from an outage, a crash or a pause, the test JVM's shared
 * session ({@link TestStack#backends()}) is connected again before the test goes on. The driver reconnects on its own
 * schedule, backing off up to a minute, and the next test of the JVM (the benchmark's schema changes, once) found no
 * node or no control connection while it did.
 */
final class RecoveringStack implements Stack {

    /** Longer than the driver's longest backoff between two reconnection attempts (a minute). */
    private static final Duration RECONNECTED_WITHIN = Duration.ofSeconds(90);

    private final Stack stack;
    private final Supplier<CqlSession> sharedSession;

    RecoveringStack(Stack stack, Supplier<CqlSession> sharedSession) {
        this.stack = stack;
        this.sharedSession = sharedSession;
    }

    @Override
    public StackMode mode() {
        return stack.mode();
    }

    @Override
    public Endpoints endpoints() {
        return stack.endpoints();
    }

    @Override
    public String describe() {
        return stack.describe();
    }

    @Override
    public void close() {
        stack.close();
    }

    @Override
    public boolean canPause() {
        return stack.canPause();
    }

    @Override
    public void pause(Service service) {
        stack.pause(service);
    }

    @Override
    public void resume(Service service) {
        stack.resume(service);
        awaitClients(service);
    }

    @Override
    public Outage outage(Service service) {
        var outage = stack.outage(service);
        return () -> {
            outage.close();
            awaitClients(service);
        };
    }

    @Override
    public boolean canCrash() {
        return stack.canCrash();
    }

    @Override
    public Outage crash(Service service) {
        var crash = stack.crash(service);
        return () -> {
            crash.close();
            awaitClients(service);
        };
    }

    /** Cassandra's: a query answered and the schema agreed on, which only the control connection can say. */
    private void awaitClients(Service service) {
        if (service != Service.CASSANDRA) {
            return; // PostgreSQL's pool, RabbitMQ's and Elasticsearch's clients connect when next asked
        }
        var session = sharedSession.get();
        Awaitility.await("the tests' shared Cassandra session to reconnect").atMost(RECONNECTED_WITHIN)
                .pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> session.execute("SELECT release_version FROM system.local").one() != null
                        && session.checkSchemaAgreement());
    }
}
