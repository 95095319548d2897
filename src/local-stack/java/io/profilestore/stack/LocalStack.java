package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four services as processes of this machine, their data and logs under one folder.
 *
 * <p>Several runs may share one stack (the run command and a test run, say): a service already running from
 * this folder is reused, never started twice. Each run holds a shared lock on {@code users.lock} while it uses
 * the stack; the run that closes last (the only one able to take that lock exclusively) stops the services. A
 * run that was killed holds no lock any more, so what it left running is reused by the next start and stopped
 * by the last close. {@code stack.lock} makes starts and stops take turns.
 */
public final class LocalStack implements Stack {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

    /** The services; a test may start some of them only. */
    public enum Service {
        CASSANDRA, ELASTICSEARCH, POSTGRES, RABBITMQ;

        public static Set<Service> all() {
            return EnumSet.allOf(Service.class);
        }
    }

    /** What {@link #start} found for each service. */
    public enum Origin { STARTED, REUSED }

    private final StackSettings settings;
    private final Map<Service, LocalService> services;
    private final Map<Service, Origin> origins = new LinkedHashMap<>();
    private final FileChannel usersChannel;
    private FileLock usersLock;

    private LocalStack(StackSettings settings, Map<Service, LocalService> services, FileChannel usersChannel) {
        this.settings = settings;
        this.services = services;
        this.usersChannel = usersChannel;
    }

    public static LocalStack start(StackSettings settings, Set<Service> wanted) {
        var services = new LinkedHashMap<Service, LocalService>();
        for (Service service : Service.values()) {
            if (wanted.contains(service)) {
                services.put(service, create(service, settings));
            }
        }
        try {
            Files.createDirectories(settings.dir());
            SystemUser.ensureCanEnter(settings, settings.dir());
            var users = FileChannel.open(settings.dir().resolve("users.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            var stack = new LocalStack(settings, services, users);
            try (var turn = takeTurn(settings)) {
                stack.startServices();
                stack.usersLock = users.lock(0, Long.MAX_VALUE, true);
            } catch (RuntimeException e) {
                stack.stopServicesStartedHere();
                users.close();
                throw e;
            }
            return stack;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the stack folder " + settings.dir(), e);
        }
    }

    /**
     * Stops a stack that no run uses any more (left behind by killed runs). Returns false, and stops nothing,
     * while some run still uses it.
     */
    public static boolean stopLeftovers(StackSettings settings) {
        var services = new LinkedHashMap<Service, LocalService>();
        for (Service service : Service.values()) {
            services.put(service, create(service, settings));
        }
        try {
            Files.createDirectories(settings.dir());
            try (var users = FileChannel.open(settings.dir().resolve("users.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    var turn = takeTurn(settings)) {
                var exclusive = tryExclusive(users);
                if (exclusive == null) {
                    return false;
                }
                try (exclusive) {
                    stopAll(services.values());
                    return true;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The exclusive lock on users.lock, or null while some run holds its shared one. */
    private static FileLock tryExclusive(FileChannel users) throws IOException {
        try {
            return users.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this JVM itself still uses the stack
        }
    }

    private static LocalService create(Service service, StackSettings settings) {
        return switch (service) {
            case CASSANDRA -> new CassandraCluster(settings);
            case ELASTICSEARCH -> new ElasticsearchNode(settings);
            case POSTGRES -> new PostgresServer(settings);
            case RABBITMQ -> new RabbitMqBroker(settings);
        };
    }

    /**
     * Waits for this run's turn to start or stop services (another run may be starting them: as long as a start
     * may take, and then some); closing the channel ends the turn.
     */
    private static FileChannel takeTurn(StackSettings settings) throws IOException {
        var channel = FileChannel.open(settings.dir().resolve("stack.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            if (channel.tryLock() == null) {
                LOG.info("waiting for another run that is starting or stopping the stack under {}", settings.dir());
                var patience = settings.startTimeout().multipliedBy(2);
                Awaitility.await("another run to finish starting or stopping the stack under " + settings.dir())
                        .atMost(patience)
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> channel.tryLock() != null);
            }
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    private void startServices() {
        ExecutorService pool = Executors.newFixedThreadPool(services.size());
        try {
            var futures = new ArrayList<CompletableFuture<Void>>();
            services.forEach((service, local) -> futures.add(CompletableFuture.runAsync(() -> {
                var origin = bringUp(local);
                synchronized (origins) {
                    origins.put(service, origin);
                }
            }, pool)));
            try {
                CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private Origin bringUp(LocalService service) {
        if (!service.runningPids().isEmpty()) {
            try {
                awaitReady(service, Duration.ofSeconds(60));
                LOG.info("{}: reusing the running process {}", service.name(), service.runningPids());
                return Origin.REUSED;
            } catch (ConditionTimeoutException e) {
                LOG.warn("{}: process {} is running but does not answer; restarting it", service.name(),
                        service.runningPids());
                service.stop();
            }
        }
        long started = System.nanoTime();
        LOG.info("{}: starting (log: {})", service.name(), service.log());
        service.launch();
        awaitReady(service, settings.startTimeout());
        LOG.info("{}: ready after {} ms", service.name(), (System.nanoTime() - started) / 1_000_000);
        return Origin.STARTED;
    }

    static void awaitReady(LocalService service, Duration timeout) {
        try {
            Awaitility.await(service.name() + " to be ready")
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .failFast(service.name() + " exited during start-up", service::failed)
                    .until(service::ready);
        } catch (TerminalFailureException exited) {
            // named now, not as the wait began: the files the service wrote while it failed
            var named = new TerminalFailureException(StartFailure.message(service));
            named.initCause(exited);
            throw named;
        }
    }

    private void stopServicesStartedHere() {
        stopAll(origins.entrySet().stream()
                .filter(e -> e.getValue() == Origin.STARTED)
                .map(e -> services.get(e.getKey()))
                .toList());
    }

    private static void stopAll(Collection<LocalService> services) {
        services.parallelStream().forEach(service -> {
            try {
                service.stop();
            } catch (RuntimeException e) {
                LOG.warn("{}: could not stop cleanly: {}", service.name(), e.getMessage());
            }
        });
    }

    /** For each service, whether this run started it or found it running. */
    public Map<Service, Origin> origins() {
        return Map.copyOf(origins);
    }

    /** The Cassandra nodes, for tests that stop, kill and restart them. */
    CassandraCluster cassandra() {
        return (CassandraCluster) services.get(Service.CASSANDRA);
    }

    /** The stack's PostgreSQL, for a standby of it. */
    PostgresServer postgres() {
        return (PostgresServer) services.get(Service.POSTGRES);
    }

    StackSettings settings() {
        return settings;
    }

    /** Kills Cassandra node n (from 1) without warning, as a crash would. */
    public void killCassandraNode(int node) {
        cassandra().killNode(node);
    }

    /** Starts Cassandra node n again on its data, and waits until it takes CQL connections. */
    public void startCassandraNode(int node) {
        cassandra().startNode(node);
    }

    /** Freezes Cassandra node n (SIGSTOP): it keeps its connections and answers nothing. */
    public void freezeCassandraNode(int node) {
        cassandra().signalNode(node, "STOP");
    }

    public void thawCassandraNode(int node) {
        cassandra().signalNode(node, "CONT");
    }

    /** The process of Cassandra node n (from 1), while it runs. */
    public OptionalLong cassandraNodePid(int node) {
        return cassandra().nodePid(node);
    }

    /** The pids of a service's processes (for tests that kill them). */
    public List<Long> pids(Service service) {
        return services.get(service).runningPids();
    }

    @Override
    public StackMode mode() {
        return StackMode.LOCAL;
    }

    @Override
    public void pause(Service service) {
        signal(service, "STOP");
    }

    @Override
    public void resume(Service service) {
        signal(service, "CONT");
    }

    @Override
    public Outage outage(Service service) {
        var local = services.get(service);
        local.stop();
        return () -> bringUp(local);
    }

    @Override
    public boolean canCrash() {
        return true;
    }

    @Override
    public Outage crash(Service service) {
        var local = services.get(service);
        var pids = local.runningPids();
        if (pids.isEmpty()) {
            throw new IllegalStateException(service + " is not running");
        }
        ProcessTrees.crash(pids, Duration.ofSeconds(30));
        LOG.info("{}: crashed (kill -9 of {} and every process under it)", local.name(), pids);
        return () -> bringUp(local);
    }

    private void signal(Service service, String signal) {
        var pids = pids(service);
        if (pids.isEmpty()) {
            throw new IllegalStateException(service + " is not running");
        }
        ProcessTrees.signal(signal, pids);
    }

    @Override
    public Endpoints endpoints() {
        var cassandra = (CassandraCluster) services.get(Service.CASSANDRA);
        var elasticsearch = (ElasticsearchNode) services.get(Service.ELASTICSEARCH);
        var postgres = (PostgresServer) services.get(Service.POSTGRES);
        var rabbitmq = (RabbitMqBroker) services.get(Service.RABBITMQ);
        return new Endpoints(
                cassandra == null ? List.of() : cassandra.contactPoints(),
                "datacenter1",
                elasticsearch == null ? null : elasticsearch.url(),
                postgres == null ? null : postgres.jdbcUrl(),
                PostgresServer.USER,
                PostgresServer.PASSWORD,
                PostgresServer.OWNER,
                PostgresServer.OWNER_PASSWORD,
                rabbitmq == null ? null : rabbitmq.uri());
    }

    @Override
    public String describe() {
        return "local processes (" + origins + "), data and logs under " + settings.dir();
    }

    /** Leaves the stack; the last run to leave stops it. Returns whether this call stopped the services. */
    public boolean leave() {
        if (usersLock == null) {
            return false;
        }
        try (var turn = takeTurn(settings)) {
            usersLock.release();
            usersLock = null;
            FileLock exclusive = tryExclusive(usersChannel);
            if (exclusive == null) {
                LOG.info("stack left running: another run still uses it");
                return false;
            }
            try (exclusive) {
                stopAll(services.values());
                return true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                usersChannel.close();
            } catch (IOException ignored) {
                // the lock goes with the channel anyway
            }
        }
    }

    @Override
    public void close() {
        leave();
    }
}
