package io.profilestore.changestream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
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

/**
 * The change stream on the real stack, read as another system would: an AMQP 0.9.1 consumer of the RabbitMQ stream
 * from a moment ({@code x-stream-offset}) finds every change of a profile, in version order, none for a refused change,
 * and a merge as one event.
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
        try (Channel channel = TestStack.backends().rabbitmq().createChannel()) {
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
    }

    /** The events by id, each at its first arrival, in the order they came: a repeat keeps its id. */
    private static Map<String, JsonNode> firstOfEach(List<JsonNode> events) {
        var first = new LinkedHashMap<String, JsonNode>();
        events.forEach(event -> first.putIfAbsent(event.path("id").asText(), event));
        return first;
    }
}
