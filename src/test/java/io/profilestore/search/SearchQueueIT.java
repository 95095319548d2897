package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * More searches at once than the service keeps connections to Elasticsearch, while Elasticsearch does not answer
 * (frozen): the searches beyond the pool wait for a connection, and when that wait runs out (the connect timeout)
 * they answer 503 search-unavailable with Retry-After, as the ones holding a connection do when their response
 * times out. The benchmark found this wait answered 500 "unexpected error": the client wraps the pool's timeout in
 * a bare RuntimeException, which the search did not take for an outage.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@EnabledIf("io.profilestore.testing.TestStack#canPause")
class SearchQueueIT {

    /** The REST client's pool: 10 connections to one host (Rest5Client's default). */
    static final int POOL = 10;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("elasticsearch.connectTimeout", "500ms"),
                    ConfigOverride.config("elasticsearch.requestTimeout", "4s")));

    @Test
    void searchesThatWaitTooLongForAConnectionAnswer503() throws Exception {
        var search = new SearchApi(new Api(APP.getLocalPort()));
        assertThat(search.search(Map.of("surname", "Очередь")).status()).as("Elasticsearch answers first").isEqualTo(200);

        var pool = Executors.newFixedThreadPool(POOL + 4);
        TestStack.stack().pause(Service.ELASTICSEARCH);
        try {
            var replies = new ArrayList<Future<Api.Reply>>();
            for (int i = 0; i < POOL + 4; i++) {
                replies.add(pool.submit((Callable<Api.Reply>) () -> search.search(Map.of("surname", "Очередь"))));
            }
            var statuses = new ArrayList<Integer>();
            for (var reply : replies) {
                var answer = reply.get(30, TimeUnit.SECONDS);
                statuses.add(answer.status());
                Api.assertProblem(answer, 503, "search-unavailable");
                assertThat(answer.headers().firstValue("Retry-After")).isPresent();
            }
            assertThat(statuses).as("every search of the burst").hasSize(POOL + 4);
        } finally {
            TestStack.stack().resume(Service.ELASTICSEARCH);
            pool.shutdownNow();
        }
    }
}
