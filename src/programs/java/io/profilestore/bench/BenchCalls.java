package io.profilestore.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;

/** A scenario's one request, as a future of its status: to the service over HTTP, or backend work on the pool. */
final class BenchCalls {

    private final BenchHttp http;
    private final ExecutorService pool;

    BenchCalls(BenchHttp http, ExecutorService pool) {
        this.http = http;
        this.pool = pool;
    }

    CompletableFuture<Integer> get(String path) {
        return http.get(path).thenApply(SimpleHttpResponse::getCode);
    }

    /** Work that answers with its own status (the PostgreSQL baseline's update), on the pool. */
    CompletableFuture<Integer> answered(Callable<Integer> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, pool);
    }

    /** Work that throws when it finds nothing (a read, a search), on the pool: 200 when it returns. */
    CompletableFuture<Integer> async(Callable<Object> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                work.call();
                return 200;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, pool);
    }
}
