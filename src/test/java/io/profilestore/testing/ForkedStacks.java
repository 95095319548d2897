package io.profilestore.testing;

import io.profilestore.stack.StackSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * {@code mvn verify} runs the integration tests in several JVMs at once (failsafe's forks, {@code -Dit.forks}): most of
 * a test's time is spent waiting on a lease, a recovery or a restart, and two cores idle half of it. Each fork gets
 * a stack of its own, so that no test sees another's pauses, kills, queues or background jobs: fork 1 the stack
 * the environment names, fork N the same settings in the folder {@code <stack dir>-forkN} on every port plus
 * {@code 10 × (N - 1)}, with the fetched binaries and the service user shared. Set as system properties before any
 * test runs, which every reader of {@link StackSettings#fromEnvironment()} prefers to the environment.
 *
 * <p>Registered in {@code META-INF/services}; a no-op in {@code mvn test} and in fork 1.
 */
public final class ForkedStacks implements LauncherSessionListener {

    /** Between forks' ports: clear of each other, and of the next setting's port. */
    static final int PORT_STEP = 10;

    static final List<String> PORTS = List.of("PROFILE_STORE_CASSANDRA_PORT", "PROFILE_STORE_CASSANDRA_STORAGE_PORT",
            "PROFILE_STORE_ELASTICSEARCH_PORT", "PROFILE_STORE_ELASTICSEARCH_TRANSPORT_PORT", "PROFILE_STORE_POSTGRES_PORT",
            "PROFILE_STORE_RABBITMQ_PORT", "PROFILE_STORE_RABBITMQ_DIST_PORT", "PROFILE_STORE_RABBITMQ_EPMD_PORT");

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (fork() > 1) {
            ownSettings(fork(), StackSettings.fromEnvironment()).forEach(System::setProperty);
        }
    }

    /** This JVM's fork, from 1 (failsafe's {@code surefire.forkNumber}, given as "fork N"); 1 outside failsafe. */
    public static int fork() {
        String digits = System.getProperty("profileStore.fork", "").replaceAll("\\D", "");
        return digits.isEmpty() ? 1 : Integer.parseInt(digits);
    }

    /** How many forks the run has ({@code -Dit.forks}); 1 outside failsafe. */
    public static int forks() {
        return Math.max(fork(), Integer.getInteger("profileStore.forks", 1));
    }

    /** What fork {@code fork} sets over the shared settings: nothing for fork 1. */
    static Map<String, String> ownSettings(int fork, StackSettings shared) {
        var own = new LinkedHashMap<String, String>();
        if (fork <= 1 || shared.dir().toString().endsWith("-fork" + fork)) {
            return own; // fork 1, or set already (a second launcher session in this JVM)
        }
        own.put("PROFILE_STORE_STACK_DIR", shared.dir() + "-fork" + fork);
        own.put("PROFILE_STORE_STACK_DIST_DIR", shared.distDir().toString());
        int[] ports = {shared.cassandraPort(), shared.cassandraStoragePort(), shared.elasticsearchPort(),
            shared.elasticsearchTransportPort(), shared.postgresPort(), shared.rabbitmqPort(), shared.rabbitmqDistPort(),
            shared.rabbitmqEpmdPort()};
        for (int i = 0; i < ports.length; i++) {
            own.put(PORTS.get(i), Integer.toString(ports[i] + PORT_STEP * (fork - 1)));
        }
        return own;
    }
}
