package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.awaitility.Awaitility;

/**
 * A standby of the stack's PostgreSQL on this machine: streaming replication, synchronous (a commit is answered
 * only once the standby has it), as production must run PostgreSQL. The fault suite kills the primary under load
 * and promotes the standby, to measure what a failover costs; clients reach whichever is primary through a JDBC URL
 * that names both ({@link #failoverJdbcUrl()}).
 */
public final class PostgresStandby implements AutoCloseable {

    private static final String NAME = "standby";

    private final LocalStack stack;
    private final PostgresServer primary;
    private final int port;
    private final Path home;

    private PostgresStandby(LocalStack stack, int port) {
        this.stack = stack;
        this.primary = stack.postgres();
        this.port = port;
        this.home = stack.settings().dir().resolve("postgres-standby");
    }

    /** Copies the primary (pg_basebackup), starts the standby on the port, and makes it synchronous. */
    public static PostgresStandby start(LocalStack stack, int port) {
        var standby = new PostgresStandby(stack, port);
        standby.launch();
        return standby;
    }

    private void launch() {
        var settings = stack.settings();
        var bin = primary.binaries();
        try {
            Files.createDirectories(home);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SystemUser.handOver(settings, home);
        var runAs = SystemUser.runAs(settings);
        var backup = new ArrayList<>(runAs);
        backup.addAll(List.of(bin.resolve("pg_basebackup").toString(), "-D", data().toString(), "-R", "-X", "stream",
                "-d", "host=127.0.0.1 port=" + primary.port() + " user=postgres application_name=" + NAME));
        Processes.run(Duration.ofMinutes(5), backup.toArray(String[]::new));
        var command = new ArrayList<>(runAs);
        command.addAll(List.of(bin.resolve("postgres").toString(), "-D", data().toString(), "-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + home,
                "-c", "max_connections=300", "-c", "fsync=off", "-c", "full_page_writes=off",
                "-c", "log_min_messages=warning"));
        Processes.launch(command, Map.of(), home.resolve("postgres.log"));
        awaitOnPrimary("the standby to stream from the primary", "streaming", "state");
        sql(primary.port(), "ALTER SYSTEM SET synchronous_standby_names = '" + NAME + "'");
        sql(primary.port(), "SELECT pg_reload_conf()");
        awaitOnPrimary("the standby to be synchronous", "sync", "sync_state");
    }

    /** Both servers: the driver connects to whichever is primary now. */
    public String failoverJdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + primary.port() + ",127.0.0.1:" + port + "/" + PostgresServer.DATABASE
                + "?targetServerType=primary";
    }

    /** A failover: the primary dies (kill -9, as a machine would) and the standby is promoted in its place. */
    public void killPrimaryAndPromote() {
        primary.runningPids().forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        sql(port, "SELECT pg_promote(true, 60)");
    }

    private void awaitOnPrimary(String what, String expected, String column) {
        Awaitility.await(what).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> {
                    try (var connection = DriverManager.getConnection(url(primary.port()), "postgres", "");
                            var rows = connection.createStatement().executeQuery("SELECT " + column
                                    + " FROM pg_stat_replication WHERE application_name = '" + NAME + "'")) {
                        return rows.next() && expected.equals(rows.getString(1));
                    }
                });
    }

    private static void sql(int port, String statement) {
        try (var connection = DriverManager.getConnection(url(port), "postgres", "");
                var run = connection.createStatement()) {
            run.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL on port " + port + " refused: " + statement, e);
        }
    }

    private static String url(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?connectTimeout=5";
    }

    private Path data() {
        return home.resolve("data");
    }

    @Override
    public void close() {
        OptionalLong pid = Processes.readPidFile(data().resolve("postmaster.pid"));
        if (pid.isPresent() && Processes.isOurs(pid.getAsLong(), data().toString())) {
            Processes.stop(pid.getAsLong(), "INT", Duration.ofSeconds(60));
        }
    }
}
