package io.profilestore.bench;

import io.dropwizard.testing.DropwizardTestSupport;
import io.profilestore.testing.TestStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.ConcurrentHistogram;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.awaitility.Awaitility;

/**
 * The dataset, loaded by the import command as a bank would move its profiles in (measured against raw Cassandra
 * writes of the same rows: {@link ImportBench}), unless an earlier run of the same seed loaded it; then the HTTP
 * bulk path and single creates, on profiles of their own, for comparison. A dataset is the first profiles of any
 * larger one of the same seed, so after a run of a smaller size only the profiles beyond it are imported (the
 * size series grows the data so).
 */
final class DatasetLoader {

    private final BenchOptions options;
    private final BenchHttp http;
    private final ExecutorService pool;
    private final DropwizardTestSupport<?> app;
    private final Findings findings;

    DatasetLoader(BenchOptions options, BenchHttp http, ExecutorService pool, DropwizardTestSupport<?> app,
            Findings findings) {
        this.options = options;
        this.http = http;
        this.pool = pool;
        this.app = app;
        this.findings = findings;
    }

    Dataset load() throws Exception {
        var dataset = Dataset.of(options.seed(), options.profiles());
        int loaded = options.reuse() ? Dataset.loadedPrefix(dataset.size, i -> profileExists(dataset.pids.get(i))) : 0;
        if (loaded == dataset.size) {
            findings.note(String.format("%,d profiles were loaded by an earlier run (seed %d); the import was not "
                    + "measured again", dataset.size, dataset.seed));
            return dataset;
        }
        if (loaded > 0) {
            findings.note(String.format("the first %,d profiles were loaded by an earlier run (seed %d); the import "
                    + "measured the %,d after them", loaded, dataset.seed, dataset.size - loaded));
        }
        var file = ImportBench.writeFile(dataset, loaded, Path.of("target/bench-import"));
        var imported = ImportBench.run(dataset, loaded, file);
        findings.addQuietly(new Load.Result("import command, given ids, killed halfway and resumed (write phase)", 0,
                imported.writeRate(), new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3), 0, null));
        findings.addQuietly(new Load.Result("raw Cassandra writes of the same rows, QUORUM, 128 at once", 0,
                imported.raw().rate(), new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3),
                imported.raw().failed(), null));
        findings.section(ImportBench.markdown(imported));
        Files.deleteIfExists(file);

        long indexStart = System.nanoTime();
        awaitIndexed(app);
        QuietBackends.awaitMergesDone(TestStack.backends().elasticsearch());
        findings.note(String.format("Elasticsearch's merges of the imported segments ended %.1f s after the import",
                (System.nanoTime() - indexStart) / 1e9));
        bulkCreates(Math.min(50_000, dataset.size));
        return dataset;
    }

    /** Waits until the outbox and the indexer's queue are empty: everything written is indexed. */
    static void awaitIndexed(DropwizardTestSupport<?> app) {
        var metrics = app.getEnvironment().metrics();
        Awaitility.await("indexing to catch up").atMost(Duration.ofHours(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> ((Number) metrics.getGauges().get("events.outbox.backlog").getValue()).longValue() == 0
                        && ((Number) metrics.getGauges().get("indexer.queue-depth").getValue()).longValue() == 0);
    }

    /**
     * The HTTP paths of creating, for comparison with the import: the bulk path ({@code count} profiles of another
     * seed, 100 a request, 6 clients, the bodies made before the clock starts) and single creates.
     */
    private void bulkCreates(int count) throws Exception {
        int batch = 100;
        int clients = 6;
        var bodies = requestBodies(Dataset.of(options.seed() + 1, count), batch);
        var next = new AtomicInteger();
        var latencies = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3);
        var errors = new AtomicLong();
        long started = System.nanoTime();
        var loops = new ArrayList<CompletableFuture<Void>>();
        for (int c = 0; c < clients; c++) {
            loops.add(CompletableFuture.runAsync(() -> {
                for (int request = next.getAndIncrement(); request < bodies.size(); request = next.getAndIncrement()) {
                    long sent = System.nanoTime();
                    var reply = http.post("/v1/profiles:batchCreate", bodies.get(request)).join();
                    latencies.recordValue((System.nanoTime() - sent) / 1000);
                    if (reply.getCode() != 201) {
                        errors.incrementAndGet();
                        throw new IllegalStateException("batch create answered " + reply.getCode() + ": "
                                + reply.getBodyText());
                    }
                }
            }, pool));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
        double seconds = (System.nanoTime() - started) / 1e9;
        findings.addQuietly(new Load.Result("bulk import, POST /v1/profiles:batchCreate (100 a request, " + clients
                + " clients)", 0, count / seconds, latencies, errors.get(), null));
        System.out.printf("bulk import over HTTP: %,d profiles in %.1f s, %,.0f profiles/s%n", count, seconds,
                count / seconds);
        awaitIndexed(app);
        var single = Dataset.of(options.seed() + 2, 0).generator();
        findings.measured(Load.closedLoop("single creates, POST /v1/profiles (16 clients)", 16, 1,
                Duration.ofSeconds(2), Duration.ofSeconds(Math.max(3, options.duration().toSeconds() / 4)), () -> {
                    String data;
                    synchronized (single) {
                        data = single.next().data().toString();
                    }
                    return http.post("/v1/profiles", "{\"data\": " + data + "}")
                            .thenApply(SimpleHttpResponse::getCode);
                }));
    }

    /** The dataset's profiles as batchCreate bodies of {@code batch} profiles each, UTF-8. */
    private static List<byte[]> requestBodies(Dataset dataset, int batch) {
        var generator = dataset.generator();
        var bodies = new ArrayList<byte[]>();
        for (int from = 0; from < dataset.size; from += batch) {
            var body = new StringBuilder("{\"profiles\": [");
            for (int i = from; i < Math.min(from + batch, dataset.size); i++) {
                body.append(i == from ? "" : ",").append("{\"data\": ").append(generator.next().data()).append('}');
            }
            bodies.add(body.append("]}").toString().getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }

    private boolean profileExists(UUID pid) {
        return http.get("/v1/profiles/" + pid).join().getCode() == 200;
    }
}
