package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PUT /v1/profiles/{pid} with If-None-Match: * on the real stack: a profile created at the pid asked for (how an import
 * over HTTP keeps a system's ids) is stored and indexed, and so is one created again where one was erased. Its
 * refusals and its users run over the twins in {@link CreateAtPidTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CreateAtPidIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    Api.Reply createAt(UUID pid, String body) {
        return api.send("PUT", "/v1/profiles/" + pid, "application/json", body, Map.of("If-None-Match", "*"));
    }

    @Test
    void aProfileIsCreatedAtThePidAskedForUnderANewUserAndIndexed() {
        var pid = UUID.randomUUID();
        String phone = SearchApi.uniquePhone();

        var created = createAt(pid, "{\"data\": {\"surname\": \"Импортова\", \"phones\": [\"" + phone + "\"]}}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.etag()).isEqualTo("\"1\"");
        assertThat(created.pid()).isEqualTo(pid);
        assertThat(created.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/v1/profiles/" + pid));
        var uid = UUID.fromString(created.json().path("uid").asText());
        assertThat(Stores.pidsOfUser(uid)).containsExactly(pid);
        assertThat(Stores.outboxVersions(pid)).containsExactly(1L);
        assertThat(api.get(pid).json()).isEqualTo(created.json());
        SearchApi.awaitIndexed(pid, 1);
    }

    @Test
    void anErasedPidCanBeCreatedAgainAndIsIndexedAgain() {
        var pid = UUID.randomUUID();
        assertThat(createAt(pid, "{\"data\": {\"n\": 1}}").status()).isEqualTo(201);
        assertThat(api.delete(pid, "\"1\"").status()).isEqualTo(204);

        var again = createAt(pid, "{\"data\": {\"n\": 2}}");

        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(api.get(pid).json().path("data").path("n").asInt()).isEqualTo(2);
        // the erase was version 2: the pid's numbering goes on, so no ETag of the erased profile applies (docs/history.md)
        assertThat(api.get(pid).version()).isEqualTo(3);
        SearchApi.awaitIndexed(pid, 3);
    }
}
