package io.profilestore.audit;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.cli.CommandActor;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every kind of access leaves its record, the records can be queried, and no audit means no look-up. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AuditIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("postgres.socketTimeout", "2s")));

    Api platform;
    Api operator;
    Api admin;
    Instant started;

    @BeforeEach
    void callers() {
        platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        operator = platform.as(TestAuth.OPERATOR);
        admin = platform.as(TestAuth.ADMIN);
        started = Instant.now().minusSeconds(1);
    }

    /** The audit trail as the admin endpoint answers it. */
    List<JsonNode> trail(String query) {
        var reply = admin.send("GET", "/v1/audit?" + query, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var records = new ArrayList<JsonNode>();
        reply.json().path("records").forEach(records::add);
        return records;
    }

    @Test
    void anOperatorsLookUpsAreRecordedWithWhatTheyShowed() {
        String phone = SearchApi.uniquePhone();
        var created = platform.create("{\"surname\": \"Аудитова\", \"phones\": [\"" + phone + "\"]}");
        var pid = created.pid();
        var uid = UUID.fromString(created.json().path("uid").asText());
        SearchApi.awaitIndexed(pid, 1);

        assertThat(operator.get(pid).status()).isEqualTo(200);
        assertThat(operator.user(uid).status()).isEqualTo(200);
        assertThat(operator.send("GET", "/v1/search?phone=" + phone.replaceAll("\\D", ""), null, null, Map.of()).status()).isEqualTo(200);
        assertThat(platform.get(pid).status()).isEqualTo(200);

        var byPid = trail("pid=" + pid);
        var operatorRecords = byPid.stream().filter(r -> r.path("actor").asText().equals("test-operator")).toList();
        assertThat(operatorRecords).extracting(r -> r.path("action").asText())
                .containsExactlyInAnyOrder("GET /v1/profiles/{pid}", "GET /v1/users/{uid}", "GET /v1/search");
        assertThat(operatorRecords).allSatisfy(r -> {
            assertThat(r.path("pids").toString()).contains(pid.toString());
            assertThat(r.path("roles").toString()).contains("operator");
            assertThat(r.path("actorKind").asText()).isEqualTo("API_KEY");
        });
        var search = operatorRecords.stream().filter(r -> r.path("action").asText().equals("GET /v1/search")).findFirst().orElseThrow();
        assertThat(search.path("request").asText()).as("what was asked").contains("phone=");
        // the platform's change is recorded with it, its read just after the answer (a machine's look-up)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(trail("pid=" + pid))
                .filteredOn(r -> r.path("actor").asText().equals("test-platform"))
                .extracting(r -> r.path("action").asText())
                .containsExactlyInAnyOrder("POST /v1/profiles", "GET /v1/profiles/{pid}"));
    }

    @Test
    void everyChangeIsRecordedWithItsCallerAndProfiles() {
        var pid = platform.create("{\"surname\": \"Аудитова\"}").pid();
        assertThat(platform.put(pid, etag(1), "{\"surname\": \"Аудитова-Петрова\"}").status()).isEqualTo(200);
        var target = UUID.fromString(platform.create("{}").json().path("uid").asText());
        var source = UUID.fromString(platform.get(pid).json().path("uid").asText());
        assertThat(admin.merge(target, source).status()).isEqualTo(200);

        // the platform's read is recorded too, just after its answer (a machine's look-up, tested apart): the changes
        var actions = trail("pid=" + pid).stream().map(r -> r.path("actor").asText() + " " + r.path("action").asText())
                .filter(action -> !action.contains(" GET ")).toList();

        assertThat(actions).containsExactly(
                "test-admin POST /v1/users/{uid}/merge",
                "test-platform PUT /v1/profiles/{pid}",
                "test-platform POST /v1/profiles");
    }

    @Test
    void theTrailIsQueriedByActorAndTimeAndPagedBackwards() {
        var pid = platform.create("{}").pid();
        for (int i = 0; i < 3; i++) {
            operator.get(pid);
        }
        var from = started.toString();
        var to = Instant.now().plusSeconds(1).toString();

        var page = admin.send("GET", "/v1/audit?actor=test-operator&from=" + from + "&to=" + to + "&limit=2", null, null, Map.of()).json();
        assertThat(page.path("records")).hasSize(2);
        long before = page.path("before").asLong();
        var rest = trail("actor=test-operator&from=" + from + "&to=" + to + "&before=" + before);
        assertThat(rest).isNotEmpty().allSatisfy(r -> assertThat(r.path("id").asLong()).isLessThan(before));
        assertThat(trail("actor=test-operator&to=" + started)).noneMatch(r -> r.path("pids").toString().contains(pid.toString()));
        assertProblem(admin.send("GET", "/v1/audit?from=yesterday", null, null, Map.of()), 400, "bad-request");
        // the fuzzer's finding: a NUL, which PostgreSQL's text cannot hold, was a 503 postgres-unavailable
        assertProblem(admin.send("GET", "/v1/audit?actor=%00", null, null, Map.of()), 400, "bad-request");
    }

    @Test
    void aSearchSentInTheBodyIsAnsweredAndAuditedLikeOneInTheUrl() {
        // the console's search: the terms in the body, never in a URL that proxies log
        String phone = SearchApi.uniquePhone();
        var pid = platform.create("{\"surname\": \"Телова\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1);

        var reply = operator.send("POST", "/v1/search", "application/json",
                "{\"q\": \"Телова " + phone + "\", \"limit\": 5}", Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("items").get(0).path("pid").asText()).isEqualTo(pid.toString());
        var recorded = trail("pid=" + pid).stream().filter(r -> r.path("actor").asText().equals("test-operator")).toList();
        assertThat(recorded).singleElement().satisfies(r -> {
            assertThat(r.path("action").asText()).isEqualTo("POST /v1/search");
            assertThat(r.path("request").asText()).as("what was asked").startsWith("/v1/search?").contains("q=").contains("limit=5");
        });
        assertProblem(operator.send("POST", "/v1/search", "application/json", "{\"q\": \"Телова\", \"x\": 1}", Map.of()),
                400, "unknown-field");
    }

    @Test
    void aLookUpAskedWithANulIsRecordedAndAnswered() {
        String phone = SearchApi.uniquePhone();
        var pid = platform.create("{\"surname\": \"Нулева\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1);

        var reply = operator.send("GET", "/v1/search?phone=" + phone.replaceAll("\\D", "") + "&surname=%00Нулев", null, null, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var recorded = trail("pid=" + pid).stream().filter(r -> r.path("action").asText().equals("GET /v1/search")).toList();
        assertThat(recorded).singleElement().satisfies(r -> assertThat(r.path("request").asText()).contains("surname="));
    }

    @Test
    void theAuditCommandPrintsTheTrail() throws Exception {
        var pid = platform.create("{}").pid();
        assertThat(operator.get(pid).status()).isEqualTo(200);

        // in a JVM of its own: a command that fails exits it, and fails this test instead of ending the run
        var audit = ApplicationCommand.run(Duration.ofSeconds(90), "audit", TestStack.configPath(), "--pid", pid.toString());

        assertThat(audit.exitCode()).as("exit code of the audit command; it printed:%n%s", audit.output()).isZero();
        assertThat(audit.output())
                .contains("test-operator (API_KEY operator) GET /v1/profiles/{pid}")
                .contains("test-platform (API_KEY platform) POST /v1/profiles")
                .contains("2 record(s)");
        // reading the trail is recorded, by the command too: who ran it (the admin its credential proves, not the
        // system's user), what it asked, and the profiles the records it printed name
        var reads = trail("actor=test-admin").stream()
                .filter(r -> r.path("action").asText().equals("audit command")
                        && r.path("request").asText().contains("--pid " + pid)).toList();
        assertThat(reads).singleElement().satisfies(r -> {
            assertThat(r.path("actorKind").asText()).isEqualTo("API_KEY");
            assertThat(r.path("roles").toString()).isEqualTo("[\"admin\"]");
            assertThat(r.path("pids").toString()).isEqualTo("[\"" + pid + "\"]");
            assertThat(r.path("status").asInt()).isEqualTo(200);
        });
    }

    @Test
    void theAuditCommandRunsOnlyForAnAdminItsCredentialProves() throws Exception {
        var pid = platform.create("{}").pid();
        var started = Instant.now().minusSeconds(1);
        var none = ApplicationCommand.start(Map.of(CommandActor.TOKEN, ""), "audit", TestStack.configPath(), "--pid",
                pid.toString()).await(Duration.ofSeconds(90), "audit");
        var operatorsKey = ApplicationCommand.start(Map.of(CommandActor.TOKEN, TestAuth.OPERATOR), "audit",
                TestStack.configPath(), "--pid", pid.toString()).await(Duration.ofSeconds(90), "audit");
        var forged = ApplicationCommand.start(Map.of(CommandActor.TOKEN, TestAuth.ADMIN + "x"), "audit",
                TestStack.configPath(), "--pid", pid.toString()).await(Duration.ofSeconds(90), "audit");

        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.output()).contains("give your API key or access token in " + CommandActor.TOKEN)
                .doesNotContain("record(s)");
        assertThat(operatorsKey.exitCode()).isEqualTo(1);
        assertThat(operatorsKey.output()).contains("test-operator does not hold the admin role").doesNotContain("record(s)");
        assertThat(forged.exitCode()).isEqualTo(1);
        assertThat(forged.output()).contains("is not accepted").doesNotContain(TestAuth.ADMIN);
        // nothing was read, so nothing is recorded: no run of the command since the test began asked for this pid (a
        // refused run would have shown no pids, so it is looked for by what it asked)
        var since = trail("from=" + started + "&limit=1000");
        assertThat(since).as("the trail since the test began").isNotEmpty();
        assertThat(since.stream().filter(r -> r.path("action").asText().equals("audit command")
                && r.path("request").asText().contains("--pid " + pid))).isEmpty();
        // while an admin's run is recorded by the same query
        assertThat(ApplicationCommand.run(Duration.ofSeconds(90), "audit", TestStack.configPath(), "--pid",
                pid.toString()).exitCode()).isZero();
        assertThat(trail("from=" + started + "&limit=1000").stream().filter(r -> r.path("action").asText()
                .equals("audit command") && r.path("request").asText().contains("--pid " + pid))).hasSize(1);
    }

    @Test
    void aMachinesSearchesAndReadsAreRecordedSoonAfterTheAnswer() {
        // a surname, and a phone of its own so that the profile is on the first page whatever earlier runs left
        String phone = SearchApi.uniquePhone();
        String digits = phone.replaceAll("\\D", "");
        var pid = platform.create("{\"surname\": \"Машинова\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1);

        var byUrl = platform.send("GET", "/v1/search?surname=Машинова&phone=" + digits, null, null, Map.of());
        var byBody = platform.send("POST", "/v1/search", "application/json",
                "{\"surname\": \"Машинова\", \"phone\": \"" + digits + "\"}", Map.of());
        var matches = platform.send("GET", "/v1/profiles/" + pid + "/matches", null, null, Map.of());
        assertThat(platform.get(pid).status()).isEqualTo(200);

        assertThat(byUrl.status()).as(byUrl.body()).isEqualTo(200);
        assertThat(byBody.status()).as(byBody.body()).isEqualTo(200);
        assertThat(matches.status()).as(matches.body()).isEqualTo(200);
        // a machine's record is written after its answer, by a writer of its own; a look for duplicates is a search,
        // and a read by id names a person as much as a search does
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(trail("actor=test-platform&pid=" + pid))
                .extracting(r -> r.path("action").asText())
                .containsExactlyInAnyOrder("POST /v1/search", "GET /v1/search", "GET /v1/profiles/{pid}/matches",
                        "GET /v1/profiles/{pid}", "POST /v1/profiles"));
        var searches = trail("actor=test-platform&pid=" + pid).stream()
                .filter(r -> r.path("action").asText().endsWith("/v1/search")).toList();
        assertThat(searches).hasSize(2).allSatisfy(r -> {
            assertThat(r.path("request").asText()).as("what was asked").contains("surname=");
            assertThat(r.path("roles").toString()).isEqualTo("[\"platform\"]");
            assertThat(r.path("status").asInt()).isEqualTo(200);
        });
    }

    @Test
    void aPersonWhoseProviderGrantsOnlyPlatformIsAuditedAsAPerson() {
        var pid = platform.create("{\"surname\": \"Человекова\"}").pid();
        // a person's token (from the console's client, not a machine's) that holds the platform role and no other
        var person = platform.as(TestAuth.jwt("person.with.platform", List.of("platform"), Duration.ofMinutes(5),
                Map.of("azp", "profile-store-console")));

        var read = person.send("GET", "/v1/profiles/" + pid, null, null, Map.of());

        assertThat(read.status()).as(read.body()).isEqualTo(200);
        // recorded before the answer: there at once, no wait
        assertThat(trail("actor=person.with.platform&pid=" + pid)).singleElement().satisfies(r -> {
            assertThat(r.path("action").asText()).isEqualTo("GET /v1/profiles/{pid}");
            assertThat(r.path("roles").toString()).isEqualTo("[\"platform\"]");
        });
    }

    @Test
    void readingTheTrailIsItselfRecorded() {
        var pid = platform.create("{}").pid();

        var first = trail("pid=" + pid);
        var second = trail("pid=" + pid);

        assertThat(first).extracting(r -> r.path("action").asText()).containsExactly("POST /v1/profiles");
        var reads = second.stream().filter(r -> r.path("action").asText().equals("GET /v1/audit")).toList();
        assertThat(reads).as("the first read, found by the pid it showed").singleElement().satisfies(r -> {
            assertThat(r.path("actor").asText()).isEqualTo("test-admin");
            assertThat(r.path("request").asText()).isEqualTo("/v1/audit?pid=" + pid);
            assertThat(r.path("pids").toString()).contains(pid.toString());
            assertThat(r.path("status").asInt()).isEqualTo(200);
        });
    }

    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void aLookUpThatCannotBeRecordedIsNotAnswered() {
        var pid = platform.create("{\"surname\": \"Аудитова\"}").pid();
        var failures = APP.getEnvironment().metrics().meter(AuditLog.FAILURES);
        long failuresBefore = failures.getCount();
        Api.Reply byOperator;
        Api.Reply byPlatform;
        TestStack.stack().pause(Service.POSTGRES);
        try {
            byOperator = operator.get(pid);
            byPlatform = platform.get(pid);
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }

        assertProblem(byOperator, 503, "audit-unavailable");
        assertThat(byOperator.body()).doesNotContain("Аудитова");
        // the resource's headers would tell that the pid exists, and its version
        assertThat(byOperator.headers().map().keySet()).as("headers of the refusal")
                .noneMatch(name -> name.equalsIgnoreCase("ETag") || name.equalsIgnoreCase("Location")
                        || name.equalsIgnoreCase("Last-Modified") || name.equalsIgnoreCase("Link"));
        assertThat(byOperator.headers().firstValue("Cache-Control")).as("the security headers stay").hasValue("no-store");
        assertThat(byOperator.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(byPlatform.etag()).as("the header that the refusal drops is there when answered").isNotNull();
        // counted for the alerts (audit_failures_total at /prometheus)
        assertThat(failures.getCount()).isGreaterThan(failuresBefore);
        assertThat(byPlatform.status()).as("a machine's read is answered once its record is queued").isEqualTo(200);
    }
}
