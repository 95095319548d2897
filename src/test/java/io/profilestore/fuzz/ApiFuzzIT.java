package io.profilestore.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests generated from the OpenAPI document, valid and mutated, at the real service: no 5xx, every 4xx a
 * problem, no hang, and the sentinel profiles changed exactly by the changes that were answered 2xx. The quick
 * variant sends 3,000 (mvn verify); {@code -Dfuzz.requests=50000} the long one, {@code -Dfuzz.seed} another draw.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ApiFuzzIT {

    /** Operators' limits small enough that the operator's share of the draw meets them: 429 is fuzzed too. */
    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(Map.of(
                    "limits.roles.operator.reads.ratePerSecond", "0.1",
                    "limits.roles.operator.reads.burst", "5",
                    "limits.roles.operator.searches.ratePerSecond", "0.1",
                    "limits.roles.operator.searches.burst", "5")));

    static final int REQUESTS = Integer.getInteger("fuzz.requests", 3_000);
    static final long SEED = Long.getLong("fuzz.seed", 20261201L);
    static final List<String> CHANGES = List.of("PUT", "PATCH", "DELETE", "POST");

    @Test
    void generatedRequestsNeverBreakTheService() throws Exception {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var sentinels = new ArrayList<UUID>();
        for (int i = 0; i < 5; i++) {
            sentinels.add(platform.create("{\"surname\": \"Фаззова\"}").pid());
        }
        JsonNode document = RequestGenerator.parse(new Api(APP.getLocalPort()).send("GET", "/openapi.json", null, null, Map.of()).body());
        var generator = new RequestGenerator(document, SEED, sentinels);
        assertThat(generator.operationCount()).as("operations in the document").isGreaterThan(10);
        var tokens = new Random(SEED);
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://127.0.0.1:" + APP.getLocalPort();

        var findings = new ArrayList<String>();
        var byStatus = new TreeMap<Integer, Integer>();
        var changed = new ConcurrentHashMap<UUID, Integer>();
        var erased = new ConcurrentHashMap<UUID, Boolean>();
        int closedUnread = 0;
        for (int i = 0; i < REQUESTS; i++) {
            var request = generator.next();
            var builder = HttpRequest.newBuilder(URI.create(base + request.path())).timeout(Duration.ofSeconds(15))
                    .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(request.body()));
            request.headers().forEach(builder::header);
            String token = switch (tokens.nextInt(20)) {
                case 0 -> null;
                case 1 -> TestAuth.OPERATOR;
                case 2 -> TestAuth.ADMIN;
                case 3 -> "psk_" + "x".repeat(tokens.nextInt(9000));
                case 4 -> "a.b.c";
                case 5 -> TestAuth.EDITOR;
                default -> TestAuth.PLATFORM;
            };
            if (token != null) {
                builder.header("Authorization", "Bearer " + token);
            }
            String shown = "#" + i + " " + request.method() + " " + abbreviate(request.path()) + " " + request.headers().keySet()
                    + (request.body() == null ? "" : " body " + abbreviate(request.body()));
            HttpResponse<String> response;
            try {
                response = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            } catch (HttpTimeoutException e) {
                findings.add("no answer within 15 s: " + shown);
                continue;
            } catch (IOException e) {
                // a body larger than the socket buffers, sent to a request the server refuses without reading it
                // (Jetty refuses an ambiguous path before any of ours runs): the server may answer and close while
                // the client still sends, and the client then sees a reset instead of the answer (RFC 9112, 9.6).
                // That the server did answer is proven by the same request without its body.
                if (request.body() != null && request.body().length() > 64 * 1024 && answersWithoutBody(client, builder, request)) {
                    closedUnread++;
                } else {
                    findings.add("connection failed (" + e + "): " + shown);
                }
                continue;
            }
            int status = response.statusCode();
            byStatus.merge(status, 1, Integer::sum);
            if (status < 300 && TestAuth.PLATFORM.equals(token) && request.method().equals("GET")
                    && request.path().startsWith("/v1/console/")) {
                // the console is for people: no form of its sign-in lets a machine's key in (OPTIONS shows no one)
                findings.add(status + " to a machine's key: " + shown);
            } else if (status >= 500) {
                findings.add(status + ": " + shown + " -> " + abbreviate(response.body()));
            } else if (status >= 400 && !request.method().equals("HEAD")) {
                String type = response.headers().firstValue("Content-Type").orElse("");
                JsonNode problem = null;
                try {
                    problem = RequestGenerator.parse(response.body());
                } catch (IOException notJson) {
                    // reported below
                }
                if (!type.startsWith("application/problem+json") || problem == null
                        || problem.path("status").asInt() != status || problem.path("type").asText().isEmpty()) {
                    findings.add(status + " without a problem (" + type + "): " + shown + " -> " + abbreviate(response.body()));
                }
                if (status == 429 && !response.headers().firstValue("Retry-After").orElse("").matches("[1-9][0-9]*")) {
                    findings.add("429 without Retry-After of whole seconds: " + shown);
                }
                if (status == 429 && response.headers().firstValue("ETag").isPresent()) {
                    findings.add("429 with the refused resource's ETag: " + shown);
                }
            } else if (status == 201 && request.pid() != null && request.method().equals("PUT")) {
                // a create at the pid (If-None-Match: *): an erased pid may be created again, at version 1
                erased.remove(request.pid());
                changed.put(request.pid(), 0);
            } else if (status < 300 && request.pid() != null && CHANGES.contains(request.method())) {
                changed.merge(request.pid(), 1, Integer::sum);
                if (request.method().equals("DELETE")) {
                    erased.put(request.pid(), true);
                }
            }
        }

        System.out.printf("fuzz: %d requests (seed %d), answers by status %s, %d closed while sending a refused body, "
                + "%d finding(s)%n", REQUESTS, SEED, byStatus, closedUnread, findings.size());
        assertThat(findings).as("findings (of %d requests)", REQUESTS).isEmpty();
        assertThat(byStatus.keySet()).as("the draw reached both accepted and refused requests, rate limited ones too")
                .anyMatch(s -> s < 300).anyMatch(s -> s >= 400).contains(429);
        for (UUID pid : sentinels) {
            var now = platform.get(pid);
            if (erased.containsKey(pid)) {
                assertThat(now.status()).as("erased %s", pid).isEqualTo(404);
            } else {
                assertThat(now.status()).isEqualTo(200);
                assertThat(now.version()).as("%s changed only by its %d accepted changes", pid, changed.getOrDefault(pid, 0))
                        .isEqualTo(1 + changed.getOrDefault(pid, 0));
            }
        }
    }

    /** The request again, without its body: a problem answer shows the server answers it itself. */
    private static boolean answersWithoutBody(HttpClient client, HttpRequest.Builder sent, RequestGenerator.Request request) {
        var again = sent.copy().method(request.method(), HttpRequest.BodyPublishers.noBody());
        try {
            var response = client.send(again.build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() >= 400 && response.statusCode() < 500
                    && response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String abbreviate(String text) {
        String flat = text.replaceAll("\\s+", " ");
        return flat.length() <= 160 ? flat : flat.substring(0, 160) + "…(" + flat.length() + " chars)";
    }
}
