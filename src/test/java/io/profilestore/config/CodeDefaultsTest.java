package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.dropwizard.logging.common.AbstractAppenderFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.testing.TestAuth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.commons.text.StringSubstitutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of one's own gets, for what it leaves out, what the docs give as the defaults, which are the bundled
 * file's: the ports 18080 and 18081, a request log without query strings, the JWT audience {@code profile-store}.
 */
class CodeDefaultsTest {

    static final String BUNDLED_REQUEST_LOG_FORMAT = "%h %l [%t] \"%m %reqAttribute{loggedPath} %H\" %s %b %D";

    @TempDir
    Path temp;

    @Test
    void aFileWithoutAServerSectionServesOnTheDocumentedPortsWithTheBundledRequestLog() throws Exception {
        var server = server(load("logging:\n  level: INFO\n"));

        assertThat(port(server, true)).isEqualTo(18080);
        assertThat(port(server, false)).isEqualTo(18081);
        assertThat(requestLogFormats(server)).containsExactly(BUNDLED_REQUEST_LOG_FORMAT);
        assertThat(server.getRegisterDefaultExceptionMappers()).as("errors are our problems, not Dropwizard's")
                .isFalse();
        assertThat(server.getEnableThreadNameFilter()).as("no search terms in thread names").isFalse();
    }

    @Test
    void aServerSectionThatNamesSomeSettingsKeepsTheDefaultsOfTheOthers() throws Exception {
        var server = server(load("server:\n  shutdownGracePeriod: 3s\n"));

        assertThat(server.getShutdownGracePeriod().toSeconds()).isEqualTo(3);
        assertThat(port(server, true)).isEqualTo(18080);
        assertThat(port(server, false)).isEqualTo(18081);
        assertThat(requestLogFormats(server)).containsExactly(BUNDLED_REQUEST_LOG_FORMAT);
    }

    /** A query string is personal data (a search's terms) or a credential: no request log writes it unless told. */
    @Test
    void aRequestLogAppenderOfOnesOwnWithoutAFormatLeavesQueryStringsOut() throws Exception {
        var server = server(load("""
                server:
                  requestLog:
                    appenders:
                      - type: console
                        target: stderr
                      - type: console
                        logFormat: '%h %r'
                """));

        assertThat(requestLogFormats(server)).containsExactly(BUNDLED_REQUEST_LOG_FORMAT, "%h %r");
    }

    @Test
    void aJwtBlockWithoutAnAudienceAcceptsTheDocumentedOne() throws Exception {
        var keys = Files.writeString(temp.resolve("jwks.json"), "{\"keys\": []}");
        var config = load("""
                auth:
                  jwt:
                    jwksFile: %s
                    issuer: https://idp.example.com/
                """.formatted(keys));

        assertThat(config.auth.jwt().audience).isEqualTo("profile-store");
    }

    /**
     * docs/operations/configuration.md says it: what a file of one's own leaves out is what the bundled file says with
     * no environment variable set, but for the bundled file's quieter loggers and the data centers of
     * NetworkTopologyStrategy (which a file that chooses it must name). An empty text and none are the same.
     */
    @Test
    void theCodesDefaultsAreTheBundledFilesButForTheLoggersAndTheDataCenters() throws Exception {
        var bootstrap = bootstrap();
        // no variable set but the one a configuration with authentication on needs, the index's number key
        var substitutor = new StringSubstitutor(
                key -> "PROFILE_STORE_NUMBER_KEYS".equals(key) ? TestAuth.NUMBER_KEYS : null);
        substitutor.setValueDelimiter(":-");
        var bundled = bootstrap.getConfigurationFactoryFactory().create(ProfileStoreConfiguration.class,
                bootstrap.getValidatorFactory().getValidator(), bootstrap.getObjectMapper(), "dw")
                .build(new SubstitutingSourceProvider(new ResourceConfigurationSourceProvider(), substitutor),
                        "profile-store.yml");
        bundled.search.numberKeys = "";
        var json = bootstrap.getObjectMapper();

        var differences = new ArrayList<String>();
        differences("", json.valueToTree(bundled), json.valueToTree(new ProfileStoreConfiguration()), differences);
        assertThat(differences).as("settings whose default is not the bundled file's")
                .containsExactlyInAnyOrder("cassandra.replication.dataCenters", "logging.loggers");
    }

    private static void differences(String path, JsonNode bundled, JsonNode code, List<String> found) {
        if (bundled.isObject() && code.isObject() && !bundled.isEmpty() && !code.isEmpty()) {
            var names = new TreeSet<String>();
            bundled.fieldNames().forEachRemaining(names::add);
            code.fieldNames().forEachRemaining(names::add);
            names.forEach(name -> differences(path.isEmpty() ? name : path + "." + name, bundled.path(name),
                    code.path(name), found));
        } else if (!text(bundled).equals(text(code))) {
            found.add(path);
        }
    }

    private static String text(JsonNode node) {
        return node.isNull() || node.isMissingNode() ? "" : node.isValueNode() ? node.asText() : node.toString();
    }

    private static Bootstrap<ProfileStoreConfiguration> bootstrap() {
        var bootstrap = new Bootstrap<>(new ProfileStoreApplication());
        bootstrap.getApplication().initialize(bootstrap);
        return bootstrap;
    }

    /** The file loaded and validated as the service loads one, with the number key authentication on needs. */
    private ProfileStoreConfiguration load(String yaml) throws Exception {
        var file = Files.writeString(temp.resolve("own.yml"),
                "search:\n  numberKeys: " + TestAuth.NUMBER_KEYS + "\n" + yaml);
        var bootstrap = bootstrap();
        var validator = bootstrap.getValidatorFactory().getValidator();
        var config = bootstrap.getConfigurationFactoryFactory().create(ProfileStoreConfiguration.class, validator,
                bootstrap.getObjectMapper(), "dw").build(bootstrap.getConfigurationSourceProvider(), file.toString());
        assertThat(validator.validate(config)).isEmpty();
        return config;
    }

    private static DefaultServerFactory server(ProfileStoreConfiguration config) {
        return (DefaultServerFactory) config.getServerFactory();
    }

    private static int port(DefaultServerFactory server, boolean application) {
        var connectors = application ? server.getApplicationConnectors() : server.getAdminConnectors();
        assertThat(connectors).hasSize(1);
        return ((HttpConnectorFactory) connectors.get(0)).getPort();
    }

    private static Object[] requestLogFormats(DefaultServerFactory server) {
        return ((LogbackAccessRequestLogFactory) server.getRequestLogFactory()).getAppenders().stream()
                .map(a -> ((AbstractAppenderFactory<?>) a).getLogFormat()).toArray();
    }
}
