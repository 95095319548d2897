package io.profilestore.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.cassandra.ImportRows;
import io.profilestore.importer.RetriedWrite;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.TestStack;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * The import command as a bank runs it, measured side by side with raw Cassandra writes of the same rows: the dataset
 * as an NDJSON file of given pids and uids; the import started, killed (kill -9) halfway, and run again to the end,
 * index and verification included; and the driver alone writing the same rows with the same statements, as many at
 * once, to a keyspace of its own, which is the physical limit of this machine.
 */
final class ImportBench {

    /** What the import and the raw writes did. */
    record Outcome(long profiles, long before, double firstRate, double resumedRate, double writeRate, RawWrites raw,
            double indexSeconds, String verified, long killedAt) {
    }

    /**
     * The raw writes: how many succeeded a second, how many rows were sent, how many attempts were tried again
     * (as the import tries them) and how many rows still failed, the first failure's kind and message, retried or
     * not (or null), and the replication of their keyspace, read back.
     */
    record RawWrites(double rate, long rows, long retried, long failed, String firstFailure,
            Map<String, String> replication) {

        /** For the report: nothing when every write went through the first time. */
        String trouble() {
            if (retried == 0 && failed == 0) {
                return "";
            }
            return String.format(" (%,d attempts tried again, %,d rows failed%s)", retried, failed,
                    firstFailure == null ? "" : ", the first failure: " + firstFailure);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARALLELISM = 128;
    /** The raw writes' rows are in memory before the clock starts: as many as fit beside the service. */
    private static final int RAW_ROWS = 300_000;
    private static final Pattern WRITTEN = Pattern.compile("import: ([\\d,]+) profiles written.* in (\\d+) s, ([\\d,]+) a second");
    private static final Pattern VERIFIED = Pattern.compile("verify: .*");

    private ImportBench() {
    }

    /** The pid and uid the benchmark gives profile {@code i} of a seed: known to every run without a file. */
    static UUID pid(long seed, int i) {
        return UUID.nameUUIDFromBytes(("profile-store bench " + seed + " profile " + i).getBytes(StandardCharsets.UTF_8));
    }

    static UUID uid(long seed, int i) {
        return UUID.nameUUIDFromBytes(("profile-store bench " + seed + " user " + i).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The dataset's profiles from {@code from} on as NDJSON, each profile under a user of its own, its planted
     * duplicates among them.
     */
    static Path writeFile(Dataset dataset, int from, Path folder) throws IOException {
        Files.createDirectories(folder);
        Path file = folder.resolve("profiles-seed" + dataset.seed + "-" + from + "-" + dataset.size + ".ndjson");
        var generator = dataset.generator();
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < dataset.size; i++) {
                var data = generator.next().data();
                if (i < from) {
                    continue; // generated all the same: profile i is the i-th the generator makes
                }
                var record = JSON.createObjectNode();
                record.put("pid", pid(dataset.seed, i).toString());
                record.put("uid", uid(dataset.seed, i).toString());
                record.put("createdAt", Instant.parse("2015-01-01T00:00:00Z").plusSeconds(i * 60L).toString());
                record.set("data", data);
                out.write(JSON.writeValueAsString(record));
                out.newLine();
            }
        }
        return file;
    }

    /** The import of the file of the dataset's profiles from {@code from} on, beside raw writes of its first rows. */
    static Outcome run(Dataset dataset, int from, Path file) throws Exception {
        var raw = rawWrites(dataset, Math.min(RAW_ROWS, dataset.size));
        Path checkpoint = Path.of(file + ".checkpoint");
        Files.deleteIfExists(checkpoint);
        Files.deleteIfExists(Path.of(file + ".rejects.ndjson"));
        long half = (dataset.size - from) / 2;
        long started = System.nanoTime();
        var first = ApplicationCommand.start("import", TestStack.configPath(), "--ndjson", file.toString());
        Awaitility.await("the import halfway").atMost(Duration.ofHours(1)).pollInterval(Duration.ofMillis(100))
                .until(() -> done(checkpoint) >= half || !first.process().isAlive());
        first.process().destroyForcibly();
        first.process().waitFor(1, TimeUnit.MINUTES);
        // the killed run prints no summary: its rate is what its checkpoint holds over the time it ran, its JVM's
        // start and the source's count included (a little below its writes' own rate)
        double firstSeconds = (System.nanoTime() - started) / 1e9;
        long killedAt = done(checkpoint);
        var resumed = ApplicationCommand.run(Duration.ofHours(2), "import", TestStack.configPath(), "--ndjson",
                file.toString());
        if (resumed.exitCode() != 0) {
            throw new IllegalStateException("the resumed import failed:\n" + resumed.output());
        }
        System.out.print(resumed.output().lines().filter(l -> l.startsWith("import:") || l.startsWith("verify:")
                || l.startsWith("reindex:")).reduce("", (a, b) -> a + b + "\n"));
        // a small file may be written whole before the kill: the run after it then writes nothing
        var written = WRITTEN.matcher(resumed.output());
        long resumedProfiles = written.find() ? Long.parseLong(written.group(1).replace(",", "")) : 0;
        double resumedSeconds = resumedProfiles == 0 ? 0 : Math.max(1, Long.parseLong(written.group(2)));
        var verified = VERIFIED.matcher(resumed.output());
        return new Outcome(dataset.size - from, from, killedAt / firstSeconds,
                resumedProfiles == 0 ? Double.NaN : resumedProfiles / resumedSeconds,
                (killedAt + resumedProfiles) / (firstSeconds + resumedSeconds), raw, indexSeconds(resumed.output()),
                verified.find() ? verified.group() : "no verification printed", killedAt);
    }

    /**
     * The driver alone, the same statements at the same parallelism (at the session's consistency, QUORUM), into a
     * keyspace of its own at the service's replication (dropped after).
     */
    static RawWrites rawWrites(Dataset dataset, int rows) throws Exception {
        var session = TestStack.backends().cassandra();
        String keyspace = "bench_raw_import";
        schema(session, "DROP KEYSPACE IF EXISTS " + keyspace);
        schema(session, "CREATE KEYSPACE " + keyspace + " WITH replication = " + TestStack.configuration().cassandra
                .replication.toCql());
        // as Cassandra holds it, for the report: the same replication as the service's keyspace
        var replication = new TreeMap<>(session.execute(SimpleStatement.newInstance(
                "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", keyspace)).one()
                .getMap("replication", String.class, String.class));
        for (String table : List.of(
                "CREATE TABLE %s.profile (pid uuid PRIMARY KEY, uid uuid, home_uid uuid, version bigint, data text,"
                        + " created_at timestamp, updated_at timestamp, kind text)"
                        + " WITH compaction = {'class': 'LeveledCompactionStrategy'}",
                // the history an import writes version 1 into, and reads first (cql/0004_profile_versions.cql)
                "CREATE TABLE %s.profile_version (pid uuid, version bigint, kind text, changed_at timestamp,"
                        + " created_at timestamp, uid uuid, data text, written_by uuid, PRIMARY KEY ((pid), version))"
                        + " WITH CLUSTERING ORDER BY (version DESC) AND compaction = {'class': 'LeveledCompactionStrategy'}",
                "CREATE TABLE %s.persons (uid uuid PRIMARY KEY, master_uid uuid, merged_into uuid, version bigint,"
                        + " created_at timestamp, updated_at timestamp) WITH compaction = {'class': 'LeveledCompactionStrategy'}",
                "CREATE TABLE %s.uid_pid (uid uuid, pid uuid, PRIMARY KEY ((uid), pid))")) {
            schema(session, table.formatted(keyspace));
        }
        var writes = new ImportRows(session, keyspace);
        var generator = dataset.generator();
        var data = new ArrayList<String>(rows);
        for (int i = 0; i < rows; i++) {
            data.add(JSON.writeValueAsString(generator.next().data()));
        }
        var permits = new Semaphore(PARALLELISM);
        var failed = new AtomicLong();
        var retried = new AtomicLong();
        var firstFailure = new AtomicReference<String>();
        var at = Instant.parse("2015-01-01T00:00:00Z");
        long started = System.nanoTime();
        for (int i = 0; i < rows; i++) {
            permits.acquire();
            int row = i;
            // tried again as the import tries a write, and no more once a row failed for good, as the import stops:
            // a timeout on a busy machine is not the driver's failure
            RetriedWrite.IMPORT.run(() -> writes.write(pid(dataset.seed, row), uid(dataset.seed, row), data.get(row),
                            at, at), () -> failed.get() == 0, error -> {
                                retried.incrementAndGet();
                                firstFailure.compareAndSet(null, cause(error));
                            })
                    .whenComplete((ok, error) -> {
                        // counted, not taken for a row written
                        if (error != null) {
                            failed.incrementAndGet();
                            firstFailure.compareAndSet(null, cause(error));
                        }
                        permits.release();
                    });
        }
        permits.acquire(PARALLELISM);
        double seconds = (System.nanoTime() - started) / 1e9;
        double rate = (rows - failed.get()) / seconds;
        var outcome = new RawWrites(rate, rows, retried.get(), failed.get(), firstFailure.get(), replication);
        System.out.printf("raw Cassandra writes: %,d profiles in %.1f s, %,.0f a second%s%n", rows, seconds, rate,
                outcome.trouble());
        schema(session, "DROP KEYSPACE " + keyspace);
        return outcome;
    }

    /** A failure's kind and message, under the CompletionException a chained future wraps it in. */
    private static String cause(Throwable error) {
        var cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /** A schema change: slower than the session's request timeout (2 s) while the cluster agrees on it. */
    private static void schema(CqlSession session, String cql) {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofMinutes(1)));
    }

    private static double indexSeconds(String output) {
        var copied = Pattern.compile("import: index .* built, [\\d,]+ profiles in (\\d+) s").matcher(output);
        return copied.find() ? Double.parseDouble(copied.group(1)) : Double.NaN;
    }

    private static long done(Path checkpoint) {
        try {
            return JSON.readTree(checkpoint.toFile()).path("done").asLong();
        } catch (IOException e) {
            return 0;
        }
    }

    static String markdown(Outcome outcome) {
        return String.format("""
                ## Moving in: the import command

                %,d profiles with given pids and uids, from an NDJSON file%s: the import killed (kill -9) at record
                %,d and run again to the end. Its writes: %,.0f profiles a second over both runs (the killed run %,.0f/s,
                its JVM's start included; the resumed run %,.0f/s). Raw Cassandra writes of the dataset's first rows
                (%,d, the same statements, 128 at once, QUORUM, no checks, replication %s): %,.0f a second%s.
                **Import ÷ raw: %.2f.** The index was built by the reindex at the end in %.0f s. `%s`
                """, outcome.profiles(), outcome.before() == 0 ? ""
                        : String.format(" (on top of the %,d loaded before)", outcome.before()),
                outcome.killedAt(), outcome.writeRate(), outcome.firstRate(), outcome.resumedRate(),
                outcome.raw().rows(), outcome.raw().replication(), outcome.raw().rate(),
                outcome.raw().trouble(),
                outcome.writeRate() / outcome.raw().rate(), outcome.indexSeconds(), outcome.verified());
    }
}
