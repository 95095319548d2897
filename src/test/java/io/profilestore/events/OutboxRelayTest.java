package io.profilestore.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay publishes a change as soon as the change is written, woken by the process that made it, not at its
 * next poll: with the poll half a minute away, each change is published within seconds.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OutboxRelayTest {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.relayInterval", "30s")));

    @Test
    void eachChangeIsPublishedWhenItIsWrittenNotAtTheNextPoll() {
        var published = APP.getEnvironment().metrics().meter("events.relay.published");
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        // the relay polls once at start: after the first change, that poll is over either way, and the next is 30 s
        // away, so only a wake publishes the second and third within seconds
        for (String surname : new String[] {"Разбуженная", "Разбуженина", "Разбуженко"}) {
            long before = published.getCount();
            assertThat(platform.create("{\"surname\": \"" + surname + "\"}").status()).isEqualTo(201);
            await("the change to be published, woken").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                    .until(() -> published.getCount() > before);
        }
    }
}
