package io.profilestore.bench;

import io.profilestore.demo.ProfileGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

/**
 * Profiles the update scenarios change: their pids, and the versions of those not in flight. A write takes its
 * profile's version out while it runs, so no two writes of one profile overlap and each sends the version the
 * profile has: neither a lock nor a stale version is expected. (The contention scenario takes only the pids of a
 * few created so, and tracks what each of its clients last saw: {@link Contention}.)
 */
record Updatable(UUID[] pids, ConcurrentHashMap<UUID, Long> versions) {

    /** {@code count} new profiles at version 1, created through the service's batch path, 100 a request. */
    static Updatable created(BenchHttp http, long seed, int count) {
        var versions = new ConcurrentHashMap<UUID, Long>();
        var generator = new ProfileGenerator(seed + count, 0.1);
        for (int from = 0; from < count; from += 100) {
            var body = new StringBuilder("{\"profiles\": [");
            for (int i = from; i < Math.min(from + 100, count); i++) {
                body.append(i == from ? "" : ",").append("{\"data\": ").append(generator.next()).append('}');
            }
            var reply = http.post("/v1/profiles:batchCreate", body.append("]}").toString()).join();
            try {
                Bench.JSON.readTree(reply.getBodyBytes()).path("created")
                        .forEach(c -> versions.put(UUID.fromString(c.path("pid").asText()), 1L));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Updatable(versions.keySet().toArray(UUID[]::new), versions);
    }

    /** A PUT through the service of a random profile of the set, with If-Match at the version it has. */
    CompletableFuture<Integer> put(BenchHttp http) {
        return write((pid, expected) -> http.put("/v1/profiles/" + pid, "\"" + expected + "\"",
                "{\"data\": {\"surname\": \"Обновлённая\", \"n\": " + (expected + 1) + "}}")
                .thenApply(response -> response.getCode()), pid -> currentVersion(http, pid));
    }

    /**
     * A write of a random profile of the set at the version it has, by {@code request} (an answer's status); a profile
     * in flight is not picked. {@code current} reads a profile's version when an answer did not come.
     */
    CompletableFuture<Integer> write(BiFunction<UUID, Long, CompletableFuture<Integer>> request,
            ToLongFunction<UUID> current) {
        var random = ThreadLocalRandom.current();
        UUID pid;
        Long version;
        do {
            pid = pids[random.nextInt(pids.length)];
            version = versions.remove(pid);
        } while (version == null);
        long expected = version;
        UUID picked = pid;
        return request.apply(pid, expected).handle((status, failure) -> {
            // an answer that did not come leaves the version unknown: the profile is read again before its next turn
            long now = status != null && status == 200 ? expected + 1
                    : status != null ? expected : current.applyAsLong(picked);
            versions.put(picked, now);
            if (failure != null) {
                throw new CompletionException(failure);
            }
            return status;
        });
    }

    private static long currentVersion(BenchHttp http, UUID pid) {
        try {
            var reply = http.get("/v1/profiles/" + pid).get(1, TimeUnit.MINUTES);
            return Bench.JSON.readTree(reply.getBodyBytes()).path("version").asLong();
        } catch (Exception e) {
            throw new IllegalStateException("profile " + pid + " could not be read back", e);
        }
    }
}
