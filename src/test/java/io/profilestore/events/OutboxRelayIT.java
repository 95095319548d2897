package io.profilestore.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay publishes a change as soon as the change is written, woken by the process that made it, not at its
 * next poll: with the poll half a minute away, each change is published within seconds.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OutboxRelayIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.relayInterval", "30s"),
                    ConfigOverride.config("indexer.relayLinger", "1s")));

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

    /**
     * Wakes that come while the relay lingers are one drain: changes made together are published together, one
     * PostgreSQL transaction and one confirm for the lot, not one each (the write tail paid for that at 100/s).
     */
    @Test
    void changesMadeTogetherArePublishedInOneDrain() throws Exception {
        var metrics = APP.getEnvironment().metrics();
        var published = metrics.meter("events.relay.published");
        var drains = metrics.histogram(OutboxRelay.DRAINED);
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        // a change first, and its drain over, so that the poll at start is behind us
        long first = published.getCount();
        long firstDrains = drains.getCount();
        assertThat(platform.create("{\"surname\": \"Собранная\"}").status()).isEqualTo(201);
        await("the first change to be published").atMost(Duration.ofSeconds(5))
                .until(() -> published.getCount() > first && drains.getCount() > firstDrains);
        long publishedBefore = published.getCount();
        long drainsBefore = drains.getCount();
        int changes = 8;
        var created = new ArrayList<CompletableFuture<Integer>>();
        var callers = Executors.newFixedThreadPool(changes);
        try {
            for (int i = 0; i < changes; i++) {
                String surname = "Собранко" + (char) ('а' + i);
                created.add(CompletableFuture.supplyAsync(
                        () -> platform.create("{\"surname\": \"" + surname + "\"}").status(), callers));
            }
            for (var status : created) {
                assertThat(status.get()).isEqualTo(201);
            }
        } finally {
            callers.shutdown();
        }
        await("the changes to be published").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> published.getCount() >= publishedBefore + changes && drains.getCount() > drainsBefore);
        // made within well under the linger of each other: one drain, two if one came just as the first began
        assertThat(drains.getCount() - drainsBefore).isBetween(1L, 2L);
    }
}
