package io.profilestore.admin;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.FreePorts;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The admin port's tasks: each POST is in the audit trail before the task runs (or the task is refused), and
 * log-level cannot raise the loggers that print headers, bodies or credentials.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdminTasksIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> API = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** Loggers that print headers, bodies or credentials at DEBUG, their ancestors, and the root. */
    static final List<String> GUARDED = List.of("org.eclipse.jetty", "org.eclipse.jetty.server.HttpChannel",
            "org.apache.hc.client5.http.wire", "org.apache.http", "org.glassfish.jersey", "com.datastax.oss.driver",
            "io.netty", "org.postgresql", "com.rabbitmq", "co.elastic", "org.elasticsearch.client", "org", "com",
            "org.eclipse", "ROOT", "root", "");

    Api admin() {
        return new Api(API.getAdminPort()).as(TestAuth.ADMIN);
    }

    @Test
    void loggersThatPrintCredentialsOrBodiesCannotBeRaised() {
        for (String logger : GUARDED) {
            for (String level : List.of("DEBUG", "TRACE", "ALL", "debug", "nonsense")) {
                var reply = admin().send("POST", "/tasks/log-level?logger=" + encode(logger) + "&level=" + level, null,
                        null, Map.of());
                assertProblem(reply, 400, "logger-refused");
                assertThat(reply.body()).as(logger).contains("may print");
            }
        }
        assertThat(level("org.eclipse.jetty")).isNotIn(Level.DEBUG, Level.TRACE, Level.ALL);
        assertThat(level(org.slf4j.Logger.ROOT_LOGGER_NAME)).isNotIn(Level.DEBUG, Level.TRACE, Level.ALL);
        // in a form body as much as in the query, and among other loggers
        var form = admin().send("POST", "/tasks/log-level", "application/x-www-form-urlencoded",
                "logger=io.profilestore.harmless&logger=org.eclipse.jetty&level=DEBUG", Map.of());
        assertProblem(form, 400, "logger-refused");
        assertThat(level("io.profilestore.harmless")).as("nothing of a refused call is applied").isNull();
    }

    @Test
    void otherLoggersCanBeRaisedAndGuardedOnesQuietened() {
        String mine = "io.profilestore.admin.raised" + UUID.randomUUID().toString().substring(0, 8);
        var raised = admin().send("POST", "/tasks/log-level?logger=" + mine + "&level=DEBUG", null, null, Map.of());
        assertThat(raised.status()).as(raised.body()).isEqualTo(200);
        assertThat(level(mine)).isEqualTo(Level.DEBUG);

        var quieter = admin().send("POST", "/tasks/log-level?logger=com.datastax.oss.driver&level=ERROR", null, null,
                Map.of());
        assertThat(quieter.status()).as(quieter.body()).isEqualTo(200);
        assertThat(level("com.datastax.oss.driver")).isEqualTo(Level.ERROR);
        var back = admin().send("POST", "/tasks/log-level?logger=com.datastax.oss.driver&level=WARN", null, null,
                Map.of());
        assertThat(back.status()).isEqualTo(200);
    }

    @Test
    void everyTaskIsRecordedWithWhoWhichTaskItsParametersNamesAndItsStatus() {
        String mine = "io.profilestore.admin.recorded" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(admin().send("POST", "/tasks/log-level?logger=" + mine + "&level=INFO", null, null, Map.of())
                .status()).isEqualTo(200);
        assertThat(admin().send("POST", "/tasks/gc?note=%D0%98%D0%B2%D0%B0%D0%BD%D0%BE%D0%B2", null, null, Map.of())
                .status()).isEqualTo(200);
        assertProblem(admin().send("POST", "/tasks/log-level?logger=org.eclipse.jetty&level=DEBUG", null, null,
                Map.of()), 400, "logger-refused");

        var tasks = taskRecords();
        assertThat(tasks).as("task records of test-admin").hasSizeGreaterThanOrEqualTo(3);
        var logLevel = find(tasks, "POST /tasks/log-level", mine);
        assertThat(logLevel.path("actorKind").asText()).isEqualTo("API_KEY");
        assertThat(logLevel.path("roles").toString()).contains("admin");
        assertThat(logLevel.path("request").asText()).contains("level=INFO");
        assertThat(logLevel.path("status").asInt()).isEqualTo(200);
        var gc = find(tasks, "POST /tasks/gc", "note");
        assertThat(gc.path("request").asText()).as("a parameter's name, not its value").doesNotContain("%D0")
                .doesNotContain("Иванов");
        assertThat(gc.path("status").asInt()).isEqualTo(200);
        var refused = find(tasks, "POST /tasks/log-level", "org.eclipse.jetty");
        assertThat(refused.path("status").asInt()).isEqualTo(400);
    }

    @Test
    void aTaskThatCannotBeRecordedDoesNotRun() throws Exception {
        // PostgreSQL where nothing listens: the service starts (its pools connect lazily), the trail cannot be written
        var cut = new DropwizardTestSupport<>(ProfileStoreApplication.class, TestStack.configPath(),
                TestStack.configOverrides(Map.of("postgres.url",
                        "jdbc:postgresql://127.0.0.1:" + FreePorts.next() + "/profilestore")));
        cut.before();
        try {
            String mine = "io.profilestore.admin.unrecorded" + UUID.randomUUID().toString().substring(0, 8);
            var reply = new Api(cut.getAdminPort()).as(TestAuth.ADMIN)
                    .send("POST", "/tasks/log-level?logger=" + mine + "&level=DEBUG", null, null, Map.of());
            assertProblem(reply, 503, "audit-unavailable");
            assertThat(level(mine)).as("the task did not run").isNull();
        } finally {
            cut.after();
        }
    }

    private List<JsonNode> taskRecords() {
        var page = new Api(API.getLocalPort()).as(TestAuth.ADMIN)
                .send("GET", "/v1/audit?actor=test-admin&limit=1000", null, null, Map.of());
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        var records = new ArrayList<JsonNode>();
        StreamSupport.stream(page.json().path("records").spliterator(), false)
                .filter(r -> r.path("action").asText().startsWith("POST /tasks/")).forEach(records::add);
        return records;
    }

    private static JsonNode find(List<JsonNode> records, String action, String inRequest) {
        return records.stream().filter(r -> r.path("action").asText().equals(action)
                && r.path("request").asText().contains(inRequest)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + action + " with " + inRequest + " in " + records));
    }

    private static Level level(String name) {
        return ((Logger) LoggerFactory.getLogger(name)).getLevel();
    }

    private static String encode(String text) {
        return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
    }
}
