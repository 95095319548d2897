package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.profilestore.api.JsonFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** A plain HTTP client of the API, so tests control every byte and header they send. */
public final class Api {

    public static final ObjectMapper JSON = JsonFormat.configure(Jackson.newObjectMapper());

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** How long a request may take: one request's work, not a job's. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String base;
    private final String token;
    private final Duration timeout;

    /** A client with the tests' default credentials: an API key with the platform and admin roles. */
    public Api(int port) {
        this("http://127.0.0.1:" + port, TestAuth.PLATFORM_AND_ADMIN);
    }

    /** @param token the bearer token to send, or null for none */
    public Api(String base, String token) {
        this(base, token, REQUEST_TIMEOUT);
    }

    private Api(String base, String token, Duration timeout) {
        this.base = base;
        this.token = token;
        this.timeout = timeout;
    }

    /** The same host on another port (the admin port), with the same token. */
    public Api onPort(int port) {
        return new Api(base.substring(0, base.lastIndexOf(':')) + ":" + port, token, timeout);
    }

    /**
     * The same, waiting up to {@code longer} for an answer: for a task that does a whole job before it answers (a
     * reconcile reads every profile of the shared stack, which every test adds to).
     */
    public Api waitingUpTo(Duration longer) {
        return new Api(base, token, longer);
    }

    /**
     * How long a task that reads every profile of the shared stack (the reconcile, the tables check) may take before it
     * answers: on a stack that many runs have filled, the tables check took 31.7 s, past a request's 30 s.
     */
    public static final Duration WHOLE_JOB = Duration.ofMinutes(3);

    /** The same on the admin port, waiting for a whole job's answer ({@link #WHOLE_JOB}). */
    public Api wholeJobOnPort(int adminPort) {
        return onPort(adminPort).waitingUpTo(WHOLE_JOB);
    }

    /** The same server, called with another token (null: without one). */
    public Api as(String otherToken) {
        return new Api(base, otherToken, timeout);
    }

    public record Reply(int status, HttpHeaders headers, String body) {
        public JsonNode json() {
            try {
                return body.isEmpty() ? JSON.missingNode() : JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        public String etag() {
            return headers.firstValue("ETag").orElse(null);
        }

        /** The version in the ETag header. */
        public long version() {
            return Long.parseLong(etag().replace("\"", ""));
        }

        public String contentType() {
            return headers.firstValue("Content-Type").orElse("");
        }

        public UUID pid() {
            return UUID.fromString(json().path("pid").asText());
        }
    }

    public Reply send(String method, String path, String contentType, String body, Map<String, String> headers) {
        PersonalData.noteBody(body);
        PersonalData.noteQuery(path);
        var request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (token != null && !headers.containsKey("Authorization")) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        try {
            var response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            ApiAnswers.keep(method, path, response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(null), response.body());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Reply get(UUID pid) {
        return send("GET", "/v1/profiles/" + pid, null, null, Map.of());
    }

    public Reply create(String data) {
        return send("POST", "/v1/profiles", "application/json", "{\"data\": " + data + "}", Map.of());
    }

    public Reply createFor(UUID uid, String data) {
        return send("POST", "/v1/profiles", "application/json", "{\"uid\": \"" + uid + "\", \"data\": " + data + "}", Map.of());
    }

    public Reply put(UUID pid, String ifMatch, String data) {
        return send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": " + data + "}", ifMatch(ifMatch));
    }

    public Reply patch(UUID pid, String ifMatch, String mergePatch) {
        return send("PATCH", "/v1/profiles/" + pid, "application/merge-patch+json", mergePatch, ifMatch(ifMatch));
    }

    public Reply delete(UUID pid, String ifMatch) {
        return send("DELETE", "/v1/profiles/" + pid, null, null, ifMatch(ifMatch));
    }

    public Reply user(UUID uid) {
        return send("GET", "/v1/users/" + uid, null, null, Map.of());
    }

    public Reply move(UUID pid, String ifMatch, UUID toUser) {
        return send("PUT", "/v1/profiles/" + pid + "/user", "application/json", "{\"uid\": \"" + toUser + "\"}", ifMatch(ifMatch));
    }

    public Reply merge(UUID target, UUID... sources) {
        var list = Arrays.stream(sources).map(s -> "\"" + s + "\"").collect(Collectors.joining(", "));
        return send("POST", "/v1/users/" + target + "/merge", "application/json", "{\"sources\": [" + list + "]}", Map.of());
    }

    public Reply unmerge(UUID target, UUID source) {
        return send("POST", "/v1/users/" + target + "/unmerge", "application/json", "{\"source\": \"" + source + "\"}", Map.of());
    }

    public Reply unmergeById(UUID target, UUID mergeId) {
        return send("POST", "/v1/users/" + target + "/unmerge", "application/json", "{\"mergeId\": \"" + mergeId + "\"}", Map.of());
    }

    public Reply batchCreate(String body) {
        return send("POST", "/v1/profiles:batchCreate", "application/json", body, Map.of());
    }

    public Reply batchUpdate(String body) {
        return send("POST", "/v1/profiles:batchUpdate", "application/json", body, Map.of());
    }

    /** The reply is an RFC 9457 problem of this status and type. */
    public static void assertProblem(Reply reply, int status, String typeSlug) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        var problem = reply.json();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("type").asText()).endsWith("/" + typeSlug);
        assertThat(problem.path("title").asText()).isNotBlank();
        assertThat(problem.path("detail").asText()).isNotBlank();
    }

    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static Map<String, String> ifMatch(String value) {
        return value == null ? Map.of() : Map.of("If-Match", value);
    }
}
