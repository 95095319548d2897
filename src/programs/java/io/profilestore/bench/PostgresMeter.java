package io.profilestore.bench;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * What PostgreSQL did while the benchmark ran, read from its statistics about once a second: transactions ended
 * (commits and rollbacks) in the service's database, and the WAL written and flushed to disk by the whole server
 * ({@code pg_stat_wal}: every flush, a committing backend's or the WAL writer's). A scenario's share is the difference
 * between the readings nearest its window's ends, per request it answered. PostgreSQL publishes a backend's counts when
 * its transaction ends and at most about once a second, so a window's edges are a second's work uncertain: about 3 % of
 * a 30 s window.
 */
final class PostgresMeter implements AutoCloseable {

    /** The server's counters at one moment: cumulative since its statistics were last reset. */
    record Reading(long atNanos, long transactions, long walRecords, long walBytes, long walFlushes) {
    }

    /** A window's counts: transactions, WAL records, bytes and flushes, over {@code seconds}. */
    record Delta(long transactions, long walRecords, long walBytes, long walFlushes, double seconds) {
    }

    private static final String READ = """
            SELECT (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()),
                   wal_records, wal_bytes, wal_sync
              FROM pg_stat_wal
            """;

    private final DataSource postgres;
    private final List<Reading> readings = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(run -> {
        var thread = new Thread(run, "bench-postgres-meter");
        thread.setDaemon(true);
        return thread;
    });

    private PostgresMeter(DataSource postgres) {
        this.postgres = postgres;
    }

    /** Starts reading about once a second; {@code null} where the statistics cannot be read (said in the report). */
    static PostgresMeter start(DataSource postgres) {
        var meter = new PostgresMeter(postgres);
        if (!meter.read()) {
            return null;
        }
        meter.timer.scheduleWithFixedDelay(meter::read, 1, 1, TimeUnit.SECONDS);
        return meter;
    }

    /** The counts between the readings nearest a span of {@link System#nanoTime()}; null when it has none inside. */
    synchronized Delta between(long fromNanos, long toNanos) {
        return delta(readings, fromNanos, toNanos);
    }

    /**
     * The counts between the readings nearest each end of a span, less the meter's own reads in between (each reading
     * after the first is a transaction of the meter's); null when no two readings span any of it.
     */
    static Delta delta(List<Reading> readings, long fromNanos, long toNanos) {
        int first = -1;
        int last = -1;
        for (int i = 0; i < readings.size(); i++) {
            long at = readings.get(i).atNanos();
            if (first < 0 || Math.abs(at - fromNanos) < Math.abs(readings.get(first).atNanos() - fromNanos)) {
                first = i;
            }
            if (last < 0 || Math.abs(at - toNanos) < Math.abs(readings.get(last).atNanos() - toNanos)) {
                last = i;
            }
        }
        if (first < 0 || last <= first) {
            return null;
        }
        var from = readings.get(first);
        var to = readings.get(last);
        return new Delta(to.transactions() - from.transactions() - (last - first), to.walRecords() - from.walRecords(),
                to.walBytes() - from.walBytes(), to.walFlushes() - from.walFlushes(),
                (to.atNanos() - from.atNanos()) / 1e9);
    }

    /** One reading, on a connection of its own taken for it: the meter keeps none from the pool it measures. */
    private synchronized boolean read() {
        // a snapshot of the statistics is kept for a transaction's length: in autocommit each read is fresh
        try (var connection = postgres.getConnection(); var statement = connection.prepareStatement(READ);
                var rows = statement.executeQuery()) {
            rows.next();
            readings.add(new Reading(System.nanoTime(), rows.getLong(1), rows.getLong(2), rows.getLong(3),
                    rows.getLong(4)));
            return true;
        } catch (SQLException e) {
            return false; // PostgreSQL down a moment: the next reading spans it
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
