package io.profilestore.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Limits per caller on a running service with authentication on: an operator's key past its tiny limits gets 429
 * rate-limited with Retry-After computed from its bucket and nothing of the resource, while another operator (a
 * JWT subject) and the platform go on, and a person's writes have a limit of their own; the metrics count people's
 * outcomes together, never by name or token.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RateLimitIT {

    /** Operators: 2 reads, then one every 100 s; 1 search, then one every 50 s. Editors: 2 writes, then 1 per 100 s. */
    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(Map.of(
                    "limits.roles.operator.reads.ratePerSecond", "0.01",
                    "limits.roles.operator.reads.burst", "2",
                    "limits.roles.operator.searches.ratePerSecond", "0.02",
                    "limits.roles.operator.searches.burst", "1",
                    "limits.otherRoles.writes.ratePerSecond", "0.01",
                    "limits.otherRoles.writes.burst", "2")));

    @Test
    void aCallerPastItsLimitIsAnswered429WithRetryAfter() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var created = platform.create("{\"surname\": \"Лимитова\"}");
        assertThat(created.status()).isEqualTo(201);
        UUID pid = created.pid();
        var operator = new Api(APP.getLocalPort()).as(TestAuth.OPERATOR);

        assertThat(operator.get(pid).status()).isEqualTo(200);
        assertThat(operator.get(pid).status()).isEqualTo(200);
        var refused = operator.get(pid);
        Api.assertProblem(refused, 429, "rate-limited");
        // the bucket refills one read in 100 s, and the two reads took well under a second of it
        assertThat(refused.headers().firstValue("Retry-After")).hasValueSatisfying(
                seconds -> assertThat(Long.parseLong(seconds)).isBetween(90L, 100L));
        assertThat(refused.headers().firstValue("ETag")).as("a header of the refused resource").isEmpty();
        assertThat(refused.body()).doesNotContain("Лимитова").doesNotContain(pid.toString());
        assertThat(operator.user(UUID.randomUUID()).status()).as("another read of the same caller").isEqualTo(429);

        // searches have a bucket of their own
        String search = "/v1/search?surname=" + java.net.URLEncoder.encode("Лимитова", java.nio.charset.StandardCharsets.UTF_8);
        assertThat(operator.send("GET", search, null, null, Map.of()).status()).isEqualTo(200);
        var searchRefused = operator.send("POST", "/v1/search", "application/json", "{\"surname\": \"Лимитова\"}", Map.of());
        Api.assertProblem(searchRefused, 429, "rate-limited");
        assertThat(Long.parseLong(searchRefused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 50L);

        // another credential of the same role has buckets of its own; the platform and writes are not held
        var anna = new Api(APP.getLocalPort()).as(TestAuth.jwt("anna.limits", List.of("operator"), Duration.ofMinutes(5)));
        assertThat(anna.get(pid).status()).isEqualTo(200);
        assertThat(platform.get(pid).status()).isEqualTo(200);
        assertThat(platform.put(pid, Api.etag(1), "{\"surname\": \"Лимитова\"}").status()).isEqualTo(200);

        var scrape = scrape();
        assertThat(scrape)
                // people together, never by name: the scrape needs no token
                .containsPattern("(?m)^rate_limit_requests_total\\{caller=\"person\",kind=\"read\",outcome=\"allowed\"} 3(\\.0)?$")
                .containsPattern("(?m)^rate_limit_requests_total\\{caller=\"person\",kind=\"read\",outcome=\"limited\"} 2(\\.0)?$")
                .containsPattern("(?m)^rate_limit_requests_total\\{caller=\"person\",kind=\"search\",outcome=\"limited\"} 1(\\.0)?$")
                .doesNotContain("test-operator").doesNotContain("anna.limits")
                .doesNotContain(TestAuth.OPERATOR).doesNotContain("psk_");
    }

    /**
     * A person's changes are limited too: a change answers with the whole profile, so {@code PATCH {}} at the version
     * a 412 named would otherwise read profile after profile unlimited. Refused, it changes nothing and shows nothing.
     */
    @Test
    void aPersonsWritesPastTheLimitAreRefusedAndChangeNothing() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        UUID pid = platform.create("{\"surname\": \"Правкина\"}").pid();
        var editor = new Api(APP.getLocalPort()).as(TestAuth.EDITOR);

        assertThat(editor.put(pid, Api.etag(1), "{\"surname\": \"Правкина\", \"n\": 2}").status()).isEqualTo(200);
        assertThat(editor.send("PATCH", "/v1/profiles/" + pid, "application/merge-patch+json", "{}",
                Map.of("If-Match", Api.etag(2))).status()).isEqualTo(200);
        var refused = editor.send("PATCH", "/v1/profiles/" + pid, "application/merge-patch+json", "{}",
                Map.of("If-Match", Api.etag(3)));

        Api.assertProblem(refused, 429, "rate-limited");
        assertThat(refused.json().path("detail").asText()).contains("writes", "nothing was changed");
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(90L, 100L);
        assertThat(refused.body()).doesNotContain("Правкина");
        assertThat(refused.headers().firstValue("ETag")).isEmpty();
        var now = platform.get(pid);
        assertThat(now.json().path("version").asLong()).as("nothing changed").isEqualTo(3);
        // the platform's writes, and the editor's searches, have buckets of their own (a read here would change the
        // people's read counts the other test looks at)
        assertThat(platform.put(pid, Api.etag(3), "{\"surname\": \"Правкина\"}").status()).isEqualTo(200);
        assertThat(editor.send("POST", "/v1/search", "application/json", "{\"surname\": \"Правкина\"}", Map.of())
                .status()).isEqualTo(200);
        assertThat(scrape()).containsPattern(
                "(?m)^rate_limit_requests_total\\{caller=\"person\",kind=\"write\",outcome=\"limited\"} 1(\\.0)?$");
    }

    private static String scrape() {
        try {
            var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + APP.getAdminPort() + "/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return response.body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
