package io.profilestore.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Creates generated profiles through the API, the write path any client uses. */
public final class DemoLoader {

    private DemoLoader() {
    }

    /**
     * Loads {@code count} profiles with a few clients at once; returns how many were created.
     *
     * @param key the API key each create carries (authentication on), or null (off)
     */
    public static int load(URI api, int count, long seed, String key) throws Exception {
        var generator = new ProfileGenerator(seed, 0.1);
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        var created = new AtomicInteger();
        var failed = new AtomicInteger();
        var next = new AtomicInteger();
        var pool = Executors.newFixedThreadPool(8);
        try {
            var clients = new CompletableFuture<?>[8];
            for (int c = 0; c < clients.length; c++) {
                clients[c] = CompletableFuture.runAsync(() -> {
                    while (next.getAndIncrement() < count) {
                        String body;
                        synchronized (generator) {
                            body = "{\"data\": " + generator.next() + "}";
                        }
                        try {
                            var request = HttpRequest.newBuilder(api.resolve("/v1/profiles"))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(body));
                            if (key != null) {
                                request.header("Authorization", "Bearer " + key);
                            }
                            var response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
                            (response.statusCode() == 201 ? created : failed).incrementAndGet();
                        } catch (Exception e) {
                            failed.incrementAndGet();
                        }
                        int done = created.get() + failed.get();
                        if (done % 500 == 0) {
                            System.out.printf("demo data: %d of %d profiles%n", done, count);
                        }
                    }
                }, pool);
            }
            CompletableFuture.allOf(clients).join();
        } finally {
            pool.shutdown();
        }
        if (failed.get() > 0) {
            System.out.printf("demo data: %d profile(s) could not be created%n", failed.get());
        }
        return created.get();
    }
}
