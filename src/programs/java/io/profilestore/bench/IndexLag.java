package io.profilestore.bench;

import java.util.ArrayList;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The index lag as a client sees it: from an acknowledged create to the moment search by its phone finds it, 5
 * clients each creating a profile and polling the search every 10 ms. A profile not found in 30 s is a timeout,
 * counted in the "all requests" percentiles at the time it took (30 s, plus the last search's wait).
 */
final class IndexLag {

    static final String SCENARIO = "index lag: acknowledged write to search hit";
    private static final int CLIENTS = 5;
    private static final long GIVE_UP_SECONDS = 30;

    private IndexLag() {
    }

    static Load.Result measure(BenchHttp http, ExecutorService pool, int samples) {
        var latencies = Load.histogram();
        var all = Load.histogram();
        var errors = new AtomicLong();
        var timeouts = new AtomicLong();
        var remaining = new AtomicInteger(samples);
        var loops = new ArrayList<CompletableFuture<Void>>();
        long started = System.nanoTime();
        for (int c = 0; c < CLIENTS; c++) {
            loops.add(CompletableFuture.runAsync(() -> {
                while (remaining.getAndDecrement() > 0) {
                    String phone = "7999" + String.format("%07d", ThreadLocalRandom.current().nextInt(10_000_000));
                    var created = http.post("/v1/profiles",
                            "{\"data\": {\"surname\": \"Лагова\", \"phones\": [\"" + phone + "\"]}}").join();
                    long acknowledged = System.nanoTime();
                    if (created.getCode() != 201) {
                        errors.incrementAndGet(); // no write, no lag: in no percentile
                        continue;
                    }
                    long deadline = acknowledged + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
                    boolean found = false;
                    while (!found && System.nanoTime() < deadline) {
                        found = searchFinds(http, phone);
                        if (!found) {
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the poll interval
                        }
                    }
                    long took = (System.nanoTime() - acknowledged) / 1000;
                    all.recordValue(took);
                    if (found) {
                        latencies.recordValue(took);
                    } else {
                        timeouts.incrementAndGet();
                    }
                }
            }, pool));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
        return new Load.Result(SCENARIO, 0, latencies.getTotalCount() / ((System.nanoTime() - started) / 1e9),
                latencies, all, errors.get(), timeouts.get(), new TreeMap<>(), null, null);
    }

    private static boolean searchFinds(BenchHttp http, String phone) {
        try {
            var reply = http.get("/v1/search?phone=" + phone).get(10, TimeUnit.SECONDS);
            return Bench.JSON.readTree(reply.getBodyBytes()).path("items").size() > 0;
        } catch (Exception e) {
            return false;
        }
    }
}
