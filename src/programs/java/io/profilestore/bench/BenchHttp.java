package io.profilestore.bench;

import io.profilestore.api.Problem;
import io.profilestore.testing.TestAuth;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The benchmark's HTTP client: asynchronous, keep-alive, at most {@value #CONNECTIONS} connections. A request
 * beyond them waits in the client's queue, and that wait counts in its latency (the load generator measures from
 * when a request was due). Java's own HttpClient opens a new connection for every request that finds none idle,
 * so one stall turned into a storm of connects; a bounded pool is what a real caller runs. (Apache HttpClient 5 is
 * on the classpath as the Elasticsearch client's transport.)
 */
final class BenchHttp implements Closeable {

    static final int CONNECTIONS = 64;

    private final URI base;
    private final CloseableHttpAsyncClient client;
    /** The answers of 400 and above, by request and problem type, each with the first one's detail. */
    private final ConcurrentHashMap<String, Refusals> refusals = new ConcurrentHashMap<>();

    /** How often one kind of refusal came, and what the first of them said. */
    record Refusals(long count, String firstDetail) {
    }

    BenchHttp(URI base) {
        this.base = base;
        var connections = PoolingAsyncClientConnectionManagerBuilder.create()
                .setMaxConnTotal(CONNECTIONS).setMaxConnPerRoute(CONNECTIONS)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.ofSeconds(5)).setSocketTimeout(Timeout.ofSeconds(60)).build())
                .build();
        this.client = HttpAsyncClients.custom().setConnectionManager(connections)
                .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(2).setTcpNoDelay(true).build())
                .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(Timeout.ofMinutes(2)).build())
                .disableCookieManagement().disableAutomaticRetries()
                .setThreadFactory(Load.named("bench-client"))
                .build();
        client.start();
    }

    CompletableFuture<SimpleHttpResponse> get(String path) {
        return get(path, TestAuth.PLATFORM);
    }

    /** A GET with another caller's token: an operator's look-ups are audited, a platform's are not. */
    CompletableFuture<SimpleHttpResponse> get(String path, String token) {
        return send(SimpleRequestBuilder.get(base.resolve(path)).setHeader("Authorization", "Bearer " + token).build());
    }

    /** A GET elsewhere than the API, without a token (the admin port). */
    CompletableFuture<SimpleHttpResponse> get(URI uri) {
        return send(SimpleRequestBuilder.get(uri).build());
    }

    CompletableFuture<SimpleHttpResponse> post(String path, String json) {
        return send(authorized(SimpleRequestBuilder.post(base.resolve(path)))
                .setBody(json, ContentType.APPLICATION_JSON).build());
    }

    CompletableFuture<SimpleHttpResponse> post(String path, byte[] json) {
        return send(authorized(SimpleRequestBuilder.post(base.resolve(path)))
                .setBody(json, ContentType.APPLICATION_JSON).build());
    }

    CompletableFuture<SimpleHttpResponse> put(String path, String ifMatch, String json) {
        return send(authorized(SimpleRequestBuilder.put(base.resolve(path))).setHeader("If-Match", ifMatch)
                .setBody(json, ContentType.APPLICATION_JSON).build());
    }

    private static SimpleRequestBuilder authorized(SimpleRequestBuilder request) {
        return request.setHeader("Authorization", "Bearer " + TestAuth.PLATFORM);
    }

    private CompletableFuture<SimpleHttpResponse> send(SimpleHttpRequest request) {
        var answer = new CompletableFuture<SimpleHttpResponse>();
        client.execute(request, new FutureCallback<>() {
            @Override
            public void completed(SimpleHttpResponse response) {
                answer.complete(response); // first: the latency measured is the answer's, not this count's
                if (response.getCode() >= 400) {
                    count(request, response);
                }
            }

            @Override
            public void failed(Exception e) {
                answer.completeExceptionally(e);
            }

            @Override
            public void cancelled() {
                answer.cancel(false);
            }
        });
        return answer;
    }

    /**
     * Every answer of 400 and above so far (the expected 409 and 412 of contention among them), by the request's
     * method and path (ids as {@code {id}}), status and problem type: a report that counts errors says which.
     */
    Map<String, Refusals> refusals() {
        return new TreeMap<>(refusals);
    }

    private void count(SimpleHttpRequest request, SimpleHttpResponse response) {
        String type = "";
        String detail = "";
        try {
            var problem = Bench.JSON.readTree(response.getBodyBytes());
            type = problem.path("type").asText("").replace(Problem.TYPE_BASE, "");
            detail = problem.path("detail").asText("");
        } catch (IOException | RuntimeException e) {
            detail = "(not a problem document)";
        }
        detail = detail.replaceAll("\\s+", " ");
        detail = detail.length() > 200 ? detail.substring(0, 200) + "…" : detail;
        String path = request.getPath().replaceAll("\\?.*", "")
                .replaceAll("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "{id}");
        String key = request.getMethod() + " " + path + " " + response.getCode() + " " + type;
        refusals.merge(key, new Refusals(1, detail), (old, one) -> new Refusals(old.count() + 1, old.firstDetail()));
    }

    @Override
    public void close() throws IOException {
        client.close(CloseMode.GRACEFUL);
        try {
            client.awaitShutdown(TimeValue.of(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
