package io.profilestore.changestream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change stream on the real stack, read as another system would: an AMQP 0.9.1 consumer of the RabbitMQ stream
 * from a moment ({@code x-stream-offset}) finds every change of a profile, in version order, none for a refused change,
 * and a merge as one event; an imported profile is told as created.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ChangeStreamIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aConsumerFromAMomentReadsEveryChangeOfAProfileInOrderAndAMergeAsOneEvent() throws Exception {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var admin = platform.as(TestAuth.ADMIN);
        // a moment before the changes; the stream answers from the chunk that holds it, so earlier events come too
        var from = new Date(System.currentTimeMillis() - 2_000);
        var created = platform.create("{\"surname\": \"Потокова\", \"firstName\": \"Анна\"}");
        var pid = created.pid();
        var home = UUID.fromString(created.json().path("uid").asText());
        var joining = platform.create("{\"surname\": \"Потоков\"}");
        var joiner = UUID.fromString(joining.json().path("uid").asText());
        var elsewhere = UUID.fromString(platform.create("{}").json().path("uid").asText());
        assertThat(platform.patch(pid, "\"1\"", "{\"phones\": [\"79005556677\"]}").status()).isEqualTo(200);
        assertThat(platform.put(pid, "\"1\"", "{\"surname\": \"Отказанная\"}").status()).as("refused").isEqualTo(412);
        assertThat(platform.put(pid, "\"2\"", "{\"surname\": \"Потокова\"}").status()).isEqualTo(200);
        var merged = admin.merge(home, joiner);
        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        var mergeId = merged.json().path("mergeId").asText();
        assertThat(platform.move(pid, "\"3\"", elsewhere).status()).isEqualTo(200);
        assertThat(platform.delete(pid, "\"4\"").status()).isEqualTo(204);

        var events = new CopyOnWriteArrayList<JsonNode>();
        var contentTypes = new CopyOnWriteArrayList<String>();
        try (Channel channel = readFrom(from, events, contentTypes)) {
            // the erase told before the purge: a purge that overtakes the publisher leaves what it removed untold
            // (StreamBatchTest), so purging at once would make which versions are told a race
            await("the erase's event").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> firstOfEach(events).containsKey(pid + ":5"));
            assertThat(admin.send("DELETE", "/v1/profiles/" + pid + "/versions", null, null, Map.of()).status())
                    .isEqualTo(204);
            await("the purge's event").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> firstOfEach(events).containsKey(pid + ":6"));
        }

        var seen = firstOfEach(events);
        var ofProfile = seen.values().stream().filter(e -> e.path("subject").asText().equals(pid.toString())).toList();
        assertThat(contentTypes).as("events read").isNotEmpty().containsOnly("application/cloudevents+json");
        assertThat(ofProfile).extracting(e -> e.path("data").path("version").asLong())
                .as("every change of the profile, in version order; none for the refused one")
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(ofProfile).extracting(e -> e.path("type").asText()).containsExactly("io.profilestore.profile.created",
                "io.profilestore.profile.updated", "io.profilestore.profile.updated", "io.profilestore.profile.moved",
                "io.profilestore.profile.erased", "io.profilestore.profile.purged");
        assertThat(ofProfile.get(3).path("data").path("uid").asText()).isEqualTo(elsewhere.toString());
        assertThat(ofProfile).as("names of members, never their values")
                .allSatisfy(e -> assertThat(e.toString()).doesNotContain("Потокова", "Анна", "79005556677"));

        var merges = seen.values().stream().filter(e -> e.path("type").asText().equals("io.profilestore.user.merged"))
                .filter(e -> e.path("data").path("operationId").asText().equals(mergeId)).toList();
        assertThat(merges).as("the merge, as one event").singleElement().satisfies(merge -> {
            assertThat(merge.path("subject").asText()).isEqualTo(home.toString());
            assertThat(merge.path("data").path("profiles").findValuesAsText("pid")).containsExactly(joining.pid().toString());
        });
        var order = new ArrayList<>(seen.keySet());
        assertThat(order.indexOf(joining.pid() + ":1")).as("the joining profile's creation before the merge")
                .isLessThan(order.indexOf("merge:" + mergeId));
        assertThat(seen).doesNotContainKey(joining.pid() + ":2"); // its merged version is the merge's event
        var told = new ArrayList<>(ofProfile);
        told.addAll(merges);
        assertEachFitsTheAsyncApiDocument(told);
    }

    /**
     * An import writes no outbox record; its verification tells the stream of each profile it read back. One
     * profile the service changes after the import is told in version order, its creation first; another, which
     * nothing changed since, is told too.
     */
    @Test
    void anImportedProfileIsToldAsCreatedBeforeWhatTheServiceChangedSince(@TempDir Path folder) throws Exception {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var from = new Date(System.currentTimeMillis() - 2_000);
        var uid = UUID.randomUUID();
        var changed = UUID.randomUUID();
        var untouched = UUID.randomUUID();
        var file = folder.resolve("profiles.ndjson");
        Files.write(file, List.of(imported(changed, uid, "Ввозова"), imported(untouched, uid, "Ввозов")));

        var run = ApplicationCommand.run(Duration.ofMinutes(5), "import", TestStack.configPath(), "--ndjson",
                file.toString(), "--no-index");
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(platform.patch(changed, "\"1\"", "{\"phones\": [\"79005550101\"]}").status()).isEqualTo(200);

        var events = new CopyOnWriteArrayList<JsonNode>();
        try (Channel channel = readFrom(from, events, new CopyOnWriteArrayList<>())) {
            await("the imported profiles' events").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> firstOfEach(events).keySet().containsAll(List.of(changed + ":2", untouched + ":1")));
        }

        var seen = firstOfEach(events);
        var ofChanged = seen.values().stream().filter(e -> e.path("subject").asText().equals(changed.toString())).toList();
        assertThat(ofChanged).extracting(e -> e.path("data").path("version").asLong()).containsExactly(1L, 2L);
        assertThat(ofChanged).extracting(e -> e.path("type").asText())
                .containsExactly("io.profilestore.profile.created", "io.profilestore.profile.updated");
        for (var created : List.of(ofChanged.get(0), seen.get(untouched + ":1"))) {
            assertThat(created.path("type").asText()).isEqualTo("io.profilestore.profile.created");
            assertThat(created.path("data").path("kind").asText()).isEqualTo("imported");
            assertThat(created.path("data").path("uid").asText()).isEqualTo(uid.toString());
            assertThat(created.toString()).doesNotContain("Ввозов");
        }
        assertEachFitsTheAsyncApiDocument(ofChanged);
    }

    private static String imported(UUID pid, UUID uid, String surname) {
        return "{\"pid\": \"" + pid + "\", \"uid\": \"" + uid + "\", \"data\": {\"surname\": \"" + surname + "\"}}";
    }

    /**
     * The contract other systems read: each event is the message the AsyncAPI document the service serves gives its
     * type, and validates against that message's payload schema.
     */
    private static void assertEachFitsTheAsyncApiDocument(List<JsonNode> events) throws IOException {
        var served = new Api(APP.getLocalPort()).as(null).send("GET", "/asyncapi.json", null, null, Map.of());
        assertThat(served.status()).isEqualTo(200);
        String iri = "https://profile-store.dev/asyncapi.json";
        var document = JSON.readTree(served.body());
        var messages = new LinkedHashMap<String, String>();
        document.path("components").path("messages").fields().forEachRemaining(message ->
                messages.put(message.getValue().path("title").asText(), message.getKey()));
        var registry = SchemaRegistry.withDefaultDialect(Dialects.getDraft7(),
                builder -> builder.schemas(Map.of(iri, served.body())));
        assertThat(events).as("events to check").isNotEmpty();
        for (var event : events) {
            String type = event.path("type").asText();
            assertThat(messages).as("a message for " + type).containsKey(type);
            var schema = registry.getSchema(SchemaLocation.of(iri + "#/components/messages/" + messages.get(type)
                    + "/payload"));
            assertThat(schema.validate(event)).as(event.path("id").asText() + " against its payload schema").isEmpty();
        }
    }

    /**
     * Reads the stream as another system would, with AMQP 0.9.1 from a moment, into the lists (each event and its
     * content type) until the channel is closed.
     */
    private static Channel readFrom(Date from, List<JsonNode> events, List<String> contentTypes) throws IOException {
        Channel channel = TestStack.backends().rabbitmq().createChannel();
        try {
            channel.basicQos(500);
            channel.basicConsume(TestStack.configuration().changeStream.queue, false, Map.of("x-stream-offset", from),
                    new DefaultConsumer(channel) {
                        @Override
                        public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                                byte[] body) throws IOException {
                            contentTypes.add(String.valueOf(properties.getContentType()));
                            events.add(JSON.readTree(body));
                            channel.basicAck(envelope.getDeliveryTag(), false);
                        }
                    });
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.abort();
            throw e;
        }
    }

    /** The events by id, each at its first arrival, in the order they came: a repeat keeps its id. */
    private static Map<String, JsonNode> firstOfEach(List<JsonNode> events) {
        var first = new LinkedHashMap<String, JsonNode>();
        events.forEach(event -> first.putIfAbsent(event.path("id").asText(), event));
        return first;
    }
}
