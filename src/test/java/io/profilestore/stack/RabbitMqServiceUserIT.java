package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.ConnectionFactory;
import io.profilestore.events.EventTopology;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The RabbitMQ user docs/operations/deployment.md ("Values to set") makes with rabbitmqctl, on a real broker: its
 * permissions, read from that page itself, let the service declare its topology, publish and consume, and nothing
 * named otherwise.
 */
@EnabledIf("io.profilestore.stack.LocalStackLifecycleIT#localMode")
class RabbitMqServiceUserIT {

    /** The page's command: {@code rabbitmqctl set_permissions -p / profile-store '<configure>' '<write>' '<read>'}. */
    static final Pattern SET_PERMISSIONS = Pattern.compile(
            "rabbitmqctl set_permissions -p (\\S+) profile-store '([^']*)' '([^']*)' '([^']*)'");

    @Test
    void theReadmesUserDeclaresPublishesAndConsumesTheServicesOwnAndNothingElse() throws Exception {
        var permissions = SET_PERMISSIONS.matcher(Files.readString(Path.of("docs/operations/deployment.md"), StandardCharsets.UTF_8));
        assertThat(permissions.find()).as("docs/operations/deployment.md's set_permissions command").isTrue();
        String vhost = permissions.group(1);

        TestStack.stack();
        var broker = new RabbitMqBroker(StackSettings.fromEnvironment());
        String user = "profile-store-test-" + UUID.randomUUID();
        String password = HexFormat.of().formatHex(randomBytes());
        broker.ctl(Duration.ofMinutes(1), "add_user", user, password);
        try {
            broker.ctl(Duration.ofMinutes(1), "set_permissions", "-p", vhost, user,
                    permissions.group(2), permissions.group(3), permissions.group(4));
            var stack = URI.create(TestStack.endpoints().rabbitmqUri());
            var factory = new ConnectionFactory();
            factory.setHost(stack.getHost());
            factory.setPort(stack.getPort());
            factory.setVirtualHost(vhost);
            factory.setUsername(user);
            factory.setPassword(password);
            try (var connection = factory.newConnection("rabbitmq-service-user-test")) {
                try (var channel = connection.createChannel()) {
                    EventTopology.declare(channel);
                }
                try (var channel = connection.createChannel()) {
                    String queue = "profile.test-" + UUID.randomUUID();
                    channel.queueDeclare(queue, false, true, true, null);
                    channel.queueBind(queue, EventTopology.EXCHANGE, "read-back");
                    channel.confirmSelect();
                    channel.basicPublish(EventTopology.EXCHANGE, "read-back", null, "hello".getBytes(StandardCharsets.UTF_8));
                    channel.waitForConfirmsOrDie(10_000);
                    var message = channel.basicGet(queue, true);
                    assertThat(message).as("the message published to the service's exchange").isNotNull();
                    assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).isEqualTo("hello");
                }
                // a refusal closes its channel: one channel each
                for (String other : List.of("other.events", "amq.topic")) {
                    var channel = connection.createChannel();
                    assertThatThrownBy(() -> channel.exchangeDeclare(other, "topic", true))
                            .as("declaring %s", other).isInstanceOf(IOException.class)
                            .hasStackTraceContaining("ACCESS_REFUSED");
                }
                var channel = connection.createChannel();
                assertThatThrownBy(() -> channel.queueDeclare("other.queue", false, false, true, null))
                        .isInstanceOf(IOException.class).hasStackTraceContaining("ACCESS_REFUSED");
            }
        } finally {
            broker.ctl(Duration.ofMinutes(1), "delete_user", user);
        }
    }

    private static byte[] randomBytes() {
        var bytes = new byte[24];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
