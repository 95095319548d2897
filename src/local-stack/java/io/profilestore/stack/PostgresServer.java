package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * PostgreSQL from the operating system's packages (Debian's postgresql-15; installed when missing and we are
 * root), with a cluster of its own under the stack folder: trust authentication on 127.0.0.1 only, a
 * {@code profilestore} role and database. fsync is off: it guards against a machine crash, not against the
 * process kills our tests do, and costs much time. The benchmark turns it on ({@link StackSettings#postgresDurable()}):
 * a commit that waits for the disk is the write path's real cost in production.
 */
final class PostgresServer implements LocalService {

    static final String DATABASE = "profilestore";
    static final String USER = "profilestore";
    static final String PASSWORD = "profilestore";
    /** Owns the database and its tables (migrate runs as it); the service's role gets grants (afterMigrate.sql). */
    static final String OWNER = "profilestore_owner";
    static final String OWNER_PASSWORD = "profilestore_owner";

    private final StackSettings settings;
    private final Path home;
    private Process launched;

    PostgresServer(StackSettings settings) {
        this.settings = settings;
        this.home = settings.dir().resolve("postgres");
    }

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public Path log() {
        return home.resolve("postgres.log");
    }

    private Path data() {
        return home.resolve("data");
    }

    @Override
    public List<Long> runningPids() {
        OptionalLong pid = Processes.readPidFile(data().resolve("postmaster.pid"));
        return pid.isPresent() && Processes.isOurs(pid.getAsLong(), data().toString())
                ? List.of(pid.getAsLong()) : List.of();
    }

    @Override
    public void launch() {
        Path bin = binaries();
        try {
            Files.createDirectories(home);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SystemUser.handOver(settings, home);
        var runAs = SystemUser.runAs(settings);
        if (!Files.exists(data().resolve("PG_VERSION"))) {
            var initdb = new ArrayList<>(runAs);
            initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", data().toString(), "-U", "postgres",
                    "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"));
            Processes.run(Duration.ofMinutes(2), initdb.toArray(String[]::new));
        }
        var command = new ArrayList<>(runAs);
        command.addAll(List.of(bin.resolve("postgres").toString(), "-D", data().toString(),
                "-p", Integer.toString(settings.postgresPort()),
                "-c", "listen_addresses=127.0.0.1",
                "-c", "unix_socket_directories=" + home,
                "-c", "max_connections=300"));
        command.addAll(durability(settings.postgresDurable()));
        command.addAll(List.of("-c", "log_min_messages=warning"));
        launched = Processes.launch(command, Map.of(), log());
    }

    /**
     * How the server treats its disk, given on its command line, so a server keeps them until it stops: a stack
     * folder whose server is running keeps the ones it was started with. Durable: every commit waits until its log
     * is on the disk, and a page half written in a crash can be repaired (PostgreSQL's defaults, as in production).
     * Otherwise nothing waits for the disk; synchronous_commit keeps its default even then, since it is also what
     * makes a commit wait for a synchronous standby (the fault suite's failover counts on it).
     */
    static List<String> durability(boolean durable) {
        return durable
                ? List.of("-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on")
                : List.of("-c", "fsync=off", "-c", "full_page_writes=off");
    }

    @Override
    public boolean ready() {
        try (var connection = DriverManager.getConnection(adminUrl(), "postgres", "");
                var statement = connection.createStatement()) {
            statement.setQueryTimeout(5);
            for (var role : List.of(List.of(USER, PASSWORD), List.of(OWNER, OWNER_PASSWORD))) {
                try (var roles = statement.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + role.get(0) + "'")) {
                    if (!roles.next()) {
                        statement.execute("CREATE ROLE " + role.get(0) + " LOGIN PASSWORD '" + role.get(1) + "'");
                    }
                }
            }
            String owner = null;
            try (var databases = statement.executeQuery(
                    "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (databases.next()) {
                    owner = databases.getString(1);
                }
            }
            if (owner == null) {
                statement.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
            } else if (!owner.equals(OWNER)) {
                try {
                    handOverToOwner();
                } catch (SQLException e) {
                    // not a matter of waiting: say so, or the start would time out without a cause
                    throw new IllegalStateException("cannot hand the database " + DATABASE + " over to " + OWNER, e);
                }
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * A stack folder from before the owner role: its database and tables belong to the service's role. Everything
     * it owns goes to the owner; migrate then grants the service's role back what it needs, the audit trail
     * append-only.
     */
    private void handOverToOwner() throws SQLException {
        String url = "jdbc:postgresql://127.0.0.1:" + settings.postgresPort() + "/" + DATABASE + "?connectTimeout=2";
        try (var connection = DriverManager.getConnection(url, "postgres", "");
                var statement = connection.createStatement()) {
            statement.execute("REASSIGN OWNED BY " + USER + " TO " + OWNER);
            statement.execute("ALTER DATABASE " + DATABASE + " OWNER TO " + OWNER);
        }
    }

    @Override
    public boolean failed() {
        return launched != null && !launched.isAlive() && runningPids().isEmpty();
    }

    @Override
    public void stop() {
        // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to go away
        runningPids().forEach(pid -> Processes.stop(pid, "INT", Duration.ofSeconds(60)));
        launched = null;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + settings.postgresPort() + "/" + DATABASE;
    }

    int port() {
        return settings.postgresPort();
    }

    private String adminUrl() {
        return "jdbc:postgresql://127.0.0.1:" + settings.postgresPort() + "/postgres?connectTimeout=2";
    }

    /** PostgreSQL 15 preferred; PROFILE_STORE_PG_BIN names another installation. */
    Path binaries() {
        String explicit = settings.lookup().apply("PROFILE_STORE_PG_BIN");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        return installed().or(() -> {
            Packages.install("PostgreSQL", "postgresql-15");
            return installed();
        }).orElseThrow(() -> new IllegalStateException("PostgreSQL was installed but its binaries were not found "
                + "under /usr/lib/postgresql; set PROFILE_STORE_PG_BIN"));
    }

    static Optional<Path> installed() {
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isExecutable(root.resolve("15/bin/postgres"))) {
            return Optional.of(root.resolve("15/bin"));
        }
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("postgres")))
                    .max(Comparator.comparing(Path::toString));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
