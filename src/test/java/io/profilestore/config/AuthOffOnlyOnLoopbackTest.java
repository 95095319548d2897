package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.SimpleServerFactory;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.jetty.HttpsConnectorFactory;
import jakarta.validation.ConstraintViolation;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With authentication off every caller has every role and the admin port is open: then the service listens on
 * this machine only, or does not start.
 */
class AuthOffOnlyOnLoopbackTest {

    @Test
    void authenticationOffOnAllInterfacesIsRefusedNamingEachConnectorAndTheSetting() {
        var config = withConnectors(false, List.of(http(null), http("127.0.0.1")), List.of(http("0.0.0.0")));

        var messages = messages(config);

        assertThat(messages).hasSize(2);
        assertThat(messages).anyMatch(m -> m.contains("server.applicationConnectors[0]") && m.contains("all interfaces"));
        assertThat(messages).anyMatch(m -> m.contains("server.adminConnectors[0]") && m.contains("0.0.0.0"));
        assertThat(messages).allMatch(m -> m.contains("auth.enabled") && m.contains("bindHost")
                && m.contains("PROFILE_STORE_BIND_HOST=127.0.0.1"));
    }

    @Test
    void authenticationOffOnLoopbackStarts() {
        for (String host : List.of("127.0.0.1", "::1", "[::1]", "localhost", "LOCALHOST")) {
            assertThat(messages(withConnectors(false, List.of(http(host)), List.of(https(host))))).as(host).isEmpty();
        }
    }

    @Test
    void hostsThatAreNotThisMachineAloneAreRefused() {
        for (String host : List.of("0.0.0.0", "::", "10.1.2.3", "192.168.1.5", "my-laptop", "", "127.0.0.1.nip.io")) {
            assertThat(messages(withConnectors(false, List.of(http("127.0.0.1")), List.of(http(host))))).as(host)
                    .hasSize(1);
        }
    }

    @Test
    void authenticationOnBindsWhereItIsTold() {
        assertThat(messages(withConnectors(true, List.of(http(null)), List.of(http("0.0.0.0"))))).isEmpty();
    }

    @Test
    void theSimpleServersOneConnectorIsCheckedToo() {
        var config = new ProfileStoreConfiguration();
        config.auth.enabled = false;
        var simple = new SimpleServerFactory();
        simple.setConnector(http(null));
        config.setServerFactory(simple);
        assertThat(messages(config)).singleElement().asString().contains("server.connector");
        simple.setConnector(http("127.0.0.1"));
        assertThat(messages(config)).isEmpty();
    }

    private static List<String> messages(ProfileStoreConfiguration config) {
        return Validators.newValidator().validate(config).stream()
                .map(ConstraintViolation::getMessage)
                .filter(m -> m.contains("auth.enabled"))
                .toList();
    }

    private static ProfileStoreConfiguration withConnectors(boolean auth, List<ConnectorFactory> application,
            List<ConnectorFactory> admin) {
        var config = new ProfileStoreConfiguration();
        config.auth.enabled = auth;
        var server = new DefaultServerFactory();
        server.setApplicationConnectors(new ArrayList<>(application));
        server.setAdminConnectors(new ArrayList<>(admin));
        config.setServerFactory(server);
        return config;
    }

    private static HttpConnectorFactory http(String bindHost) {
        var connector = new HttpConnectorFactory();
        connector.setBindHost(bindHost);
        return connector;
    }

    private static HttpsConnectorFactory https(String bindHost) {
        var connector = new HttpsConnectorFactory();
        connector.setBindHost(bindHost);
        return connector;
    }
}
