package io.profilestore.faults;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.testing.TestAuth;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** How the workload's clients send a request to an API instance, and read its answer as the history needs it. */
final class WorkloadHttp {

    private static final String PROBLEMS = "https://profile-store.dev/problems/";

    /**
     * An answer as the history needs it; times in ns since the run began; {@code notSent}: the connection was
     * refused, the request never left.
     */
    record Answer(String instance, long start, long end, int status, String problem, String detail, JsonNode json,
            long version, boolean notSent, UUID requestId) {

        /**
         * What it says happened: ok (2xx); failed when it says nothing was changed (a refusal, or an outage before
         * anything was written); unknown when it may have happened (no answer, or an answer that says so).
         */
        String outcome(String op) {
            if (status >= 200 && status < 300) {
                return Event.OK;
            }
            if (notSent) {
                return Event.FAILED;
            }
            if (status == 0 || status >= 500 && !detail.contains("nothing was changed") && !detail.contains("was not applied")) {
                return op.equals("read") ? Event.FAILED : Event.UNKNOWN;
            }
            return Event.FAILED;
        }

        /** The versions a merge's or unmerge's answer gives the profiles it moved. */
        Map<UUID, Long> versions() {
            var versions = new HashMap<UUID, Long>();
            json.path("versions").fields().forEachRemaining(v -> versions.put(UUID.fromString(v.getKey()), v.getValue().asLong()));
            return versions;
        }

        /** What an unmerge's answer says it left where it was (moved by hand or erased since the merge). */
        List<UUID> skipped() {
            var skipped = new ArrayList<UUID>();
            if (status == 200) {
                json.path("skipped").forEach(s -> skipped.add(UUID.fromString(s.path("pid").asText())));
            }
            return skipped;
        }

        /** The operation's own id: {@code field} of a 200, or the one a 503 operation-pending gives. */
        UUID operationId(String field) {
            String id = status == 200 ? json.path(field).asText(null)
                    : "operation-pending".equals(problem) ? json.path("operationId").asText(null) : null;
            return id == null ? null : UUID.fromString(id);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final long runStart;

    WorkloadHttp(long runStart) {
        this.runStart = runStart;
    }

    /**
     * The platform's key, a machine's, for what the platform does; a data steward's (an editor, a person) for merges and
     * unmerges, as in production. A key holding both would be a person's, whose every read waits for its audit record.
     */
    static String credentialFor(String path) {
        return path.endsWith("/merge") || path.endsWith("/unmerge") ? TestAuth.EDITOR : TestAuth.PLATFORM;
    }

    /**
     * Sends one request with an id of its own ({@code Request-Id}), which the rows its change writes carry: the checker
     * reads from them which request made what it finds.
     */
    Answer send(Instance instance, String method, String path, String contentType, String body, Long ifMatch) {
        var requestId = UUID.randomUUID();
        var request = HttpRequest.newBuilder(instance.base().resolve(path))
                .timeout(Duration.ofSeconds(15))
                .header("Authorization", "Bearer " + credentialFor(path))
                .header("Request-Id", requestId.toString())
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (ifMatch != null) {
            request.header("If-Match", "\"" + ifMatch + "\"");
        }
        long start = System.nanoTime() - runStart;
        try {
            var reply = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            long end = System.nanoTime() - runStart;
            JsonNode json = reply.body().isEmpty() ? Workload.JSON.createObjectNode() : Workload.JSON.readTree(reply.body());
            long version = reply.headers().firstValue("ETag").map(e -> Long.parseLong(e.replace("\"", ""))).orElse(-1L);
            String type = json.path("type").asText("");
            return new Answer(instance.name(), start, end, reply.statusCode(),
                    type.startsWith(PROBLEMS) ? type.substring(PROBLEMS.length()) : null, json.path("detail").asText(""),
                    json, version, false, requestId);
        } catch (ConnectException e) {
            return failed(instance, start, "connection refused", true, requestId);
        } catch (IOException e) {
            return failed(instance, start, e.getClass().getSimpleName(), false, requestId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(instance, start, "interrupted", false, requestId);
        }
    }

    private Answer failed(Instance instance, long start, String why, boolean notSent, UUID requestId) {
        return new Answer(instance.name(), start, System.nanoTime() - runStart, 0, null, why,
                Workload.JSON.createObjectNode(), -1, notSent, requestId);
    }
}
