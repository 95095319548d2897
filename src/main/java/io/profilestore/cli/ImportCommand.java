package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.jackson.Jackson;
import io.profilestore.api.JsonFormat;
import io.profilestore.audit.AuditEntry;
import io.profilestore.auth.Role;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.profiles.Documents;
import io.profilestore.tablecheck.TableCheck;
import io.profilestore.importer.Checkpoint;
import io.profilestore.importer.ImportSource;
import io.profilestore.importer.ImportVerifier;
import io.profilestore.importer.Importer;
import io.profilestore.importer.JdbcSource;
import io.profilestore.importer.NdjsonSource;
import io.profilestore.importer.RecordReader;
import io.profilestore.wiring.Wiring;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import net.sourceforge.argparse4j.inf.ArgumentGroup;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code import <config> --ndjson FILE | --jdbc-url URL --query SQL}: moves profiles in from another system, keeping
 * the pids and uids it gives (docs/operations/import.md). Writes Cassandra directly, many records at once, checking
 * each as the API does (what it cannot take goes to a rejects file); resumable from its checkpoint; then builds the
 * index with a reindex, and verifies every profile against the source, telling the change stream of each as it goes.
 * Exits 1 when it stopped before the end or the verification found a difference.
 */
public class ImportCommand extends BackendsCommand {

    /** The source database's password: from the environment, never the command line (which `ps` shows). */
    static final String JDBC_PASSWORD = "PROFILE_STORE_IMPORT_JDBC_PASSWORD";

    /** Who runs this import, once {@link #mayStart} has checked the credential. */
    private CommandActor.Actor actor;

    public ImportCommand() {
        super("import", "Imports profiles from NDJSON or a SQL query, keeping their ids (resumable; verified)",
                new Switch("--no-index", "noIndex", "leave the index as it is (run reindex yourself later)"));
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        ArgumentGroup source = subparser.addArgumentGroup("source (one of)");
        source.addArgument("--ndjson").metavar("FILE").help("a file of {\"pid\"?, \"uid\"?, \"data\", \"createdAt\"?} a line");
        source.addArgument("--jdbc-url").metavar("URL").dest("jdbcUrl")
                .help("a database to read, e.g. jdbc:postgresql://host/db (its password in " + JDBC_PASSWORD + ")");
        source.addArgument("--jdbc-user").metavar("USER").dest("jdbcUser");
        source.addArgument("--query").metavar("SQL")
                .help("selects pid, uid, data (json or jsonb) and optionally created_at, ORDER BY a key");
        subparser.addArgument("--checkpoint").metavar("FILE")
                .help("where the import keeps its place (default: FILE.checkpoint beside the NDJSON, import.checkpoint"
                        + " here for a query); its rejects and differences go beside it");
        subparser.addArgument("--parallelism").type(Integer.class).setDefault(128)
                .help("profiles written at once (default 128)");
    }

    /** Who runs the import, as the trail records it: asked before anything is opened or read. */
    @Override
    protected boolean mayStart(Namespace namespace, ProfileStoreConfiguration config) {
        try {
            actor = CommandActor.of(config.auth, System.getenv(CommandActor.TOKEN), Role.ADMIN, "import",
                    System.getProperty("user.name"));
            return true;
        } catch (CommandActor.Refused refused) {
            System.err.println(refused.getMessage());
            return false;
        }
    }

    @Override
    protected boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) throws Exception {
        try (ImportSource source = source(namespace)) {
            Path checkpointFile = checkpointFile(namespace);
            String base = checkpointFile.toString().replaceAll("\\.checkpoint$", "");
            Path rejects = Path.of(base + ".rejects.ndjson");
            String identity = source.identity();
            var checkpoint = Checkpoint.read(checkpointFile);
            if (checkpoint == null) {
                checkpoint = Checkpoint.fresh(identity, Instant.now());
            } else if (!checkpoint.source.equals(identity)) {
                System.out.printf("import: %s is the checkpoint of another source (%s), not of %s; give another"
                        + " --checkpoint, or remove it to import from the beginning%n", checkpointFile, checkpoint.source,
                        identity);
                return false;
            }
            // on the trail before anything is written (PostgreSQL down: the import does not start), its outcome after
            var wiring = wiring(config, backends, metrics);
            var trail = wiring.audit();
            long audited = trail.record(new AuditEntry(null, null, actor.name(), actor.kind(), actor.roles(),
                    "import command", "import from " + identity + (checkpoint.done > 0 ? ", resumed after record "
                            + checkpoint.done : ""), List.of(), null));
            boolean done = importAndVerify(wiring, namespace, config, source, checkpoint, checkpointFile, base, rejects);
            trail.recordOutcome(List.of(audited), done ? 200 : 500);
            return done;
        }
    }

    private boolean importAndVerify(Wiring wiring, Namespace namespace, ProfileStoreConfiguration config,
            ImportSource source, Checkpoint checkpoint, Path checkpointFile, String base, Path rejects) throws Exception {
        long total = count(source);
        var json = JsonFormat.configure(Jackson.newObjectMapper());
        var reader = new RecordReader(json, new Documents(json, config.profiles.maxDocumentBytes), checkpoint.startedAt);

        if (checkpoint.allWritten) {
            System.out.println("import: an earlier run wrote every record; nothing is written again");
        } else {
            if (checkpoint.done > 0) {
                System.out.printf("import: resuming after record %,d (%s)%n", checkpoint.done, checkpointFile);
            }
            long started = System.nanoTime();
            var importer = new Importer(reader, wiring.importRows(),
                    namespace.getInt("parallelism"));
            var place = checkpoint;
            var outcome = whileTheTablesCheckWaits(wiring, () -> importer.run(source, place, checkpointFile,
                    rejects, total));
            if (outcome == null) {
                System.out.println("import: check-tables, or another import, runs right now; run the import once"
                        + " that one is done");
                return false;
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf("import: %,d profiles written, %,d records rejected (%s) in %.0f s, %,.0f a second%n",
                    outcome.written(), outcome.rejected(), rejects, seconds, outcome.written() / Math.max(seconds, 1e-3));
            if (!outcome.complete()) {
                System.out.printf("import: stopped after record %,d: %s; run the same command again to resume%n",
                        outcome.done(), outcome.failure());
                return false;
            }
            checkpoint.allWritten = true;
            checkpoint.save(checkpointFile);
        }

        if (namespace.getBoolean("noIndex")) {
            System.out.println("import: the index is left as it was (--no-index): run reindex to build it");
        } else if (!checkpoint.indexed) {
            long started = System.nanoTime();
            var result = wiring.reindexer().run(System.out, false, -1);
            System.out.printf("import: index %s built, %,d profiles in %.0f s%n", result.to(), result.profiles(),
                    (System.nanoTime() - started) / 1e9);
            checkpoint.indexed = true;
            checkpoint.save(checkpointFile);
        }

        Path differencesFile = Path.of(base + ".differences.ndjson");
        var verified = new ImportVerifier(reader, wiring.profiles(), wiring.streamFeed()::tell).run(source, differencesFile, total);
        System.out.printf("verify: %,d records: %,d profiles equal to the source, %,d rejected, %,d different, %,d"
                + " missing, %,d changed by the service since%s%n", verified.records(), verified.equal(),
                verified.rejected(), verified.different(), verified.missing(), verified.changedSince(),
                verified.differences() == 0 ? "" : " (" + differencesFile + ")");
        return verified.differences() == 0;
    }

    /**
     * Runs the writes holding the tables' check's lock (an advisory lock in PostgreSQL): the check, scheduled or
     * run by hand, would judge rows half written, and a second import would share this one's files. Null when
     * another holds it.
     */
    private static Importer.Outcome whileTheTablesCheckWaits(Wiring wiring, Callable<Importer.Outcome> writes)
            throws Exception {
        var outcome = new AtomicReference<Importer.Outcome>();
        var failure = new AtomicReference<Exception>();
        boolean ran = wiring.oneAtATime().ifFree(TableCheck.JOB, () -> {
            try {
                outcome.set(writes.call());
            } catch (Exception e) {
                failure.set(e);
            }
        });
        if (failure.get() != null) {
            throw failure.get();
        }
        return ran ? outcome.get() : null;
    }

    private static ImportSource source(Namespace namespace) {
        String ndjson = namespace.getString("ndjson");
        String url = namespace.getString("jdbcUrl");
        if ((ndjson == null) == (url == null)) {
            throw new IllegalArgumentException("import reads one source: --ndjson FILE, or --jdbc-url URL with --query SQL");
        }
        if (ndjson != null) {
            return new NdjsonSource(Path.of(ndjson));
        }
        String query = namespace.getString("query");
        if (query == null) {
            throw new IllegalArgumentException("--jdbc-url needs --query: the SQL that selects pid, uid and data");
        }
        return new JdbcSource(url, namespace.getString("jdbcUser"), System.getenv(JDBC_PASSWORD), query);
    }

    private static Path checkpointFile(Namespace namespace) {
        String given = namespace.getString("checkpoint");
        if (given != null) {
            return Path.of(given);
        }
        String ndjson = namespace.getString("ndjson");
        return ndjson != null ? Path.of(ndjson + ".checkpoint") : Path.of("import.checkpoint");
    }

    private static long count(ImportSource source) {
        try {
            return source.count();
        } catch (Exception e) {
            return -1; // the progress shows no end and no ETA, nothing worse
        }
    }
}
