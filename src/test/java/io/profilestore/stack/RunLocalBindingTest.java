package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.configuration.ConfigurationValidationException;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.profilestore.cli.FileOrClasspathConfigurationSourceProvider;
import io.profilestore.config.ProfileStoreConfiguration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code ./run-local} turns authentication off: the service it runs listens on this machine only, and the
 * configuration it builds that way is one the service accepts (with authentication off, nothing else is).
 */
class RunLocalBindingTest {

    /** Not Dropwizard's own prefix: the overrides of this test must not reach another's configuration. */
    static final String PREFIX = "run-local-binding-test";

    @Test
    void runLocalBindsBothPortsToLoopback() throws Exception {
        var overrides = new HashMap<>(RunLocal.bindLoopbackUnlessTold(null));
        overrides.put("dw.auth.enabled", "false");

        var server = (DefaultServerFactory) load(overrides).getServerFactory();

        for (var connector : List.of(server.getApplicationConnectors().get(0), server.getAdminConnectors().get(0))) {
            assertThat(((HttpConnectorFactory) connector).getBindHost()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void withoutItAuthenticationOffIsRefused() {
        assertThatThrownBy(() -> load(Map.of("dw.auth.enabled", "false")))
                .isInstanceOf(ConfigurationValidationException.class)
                .hasMessageContaining("server.applicationConnectors[0]")
                .hasMessageContaining("PROFILE_STORE_BIND_HOST=127.0.0.1");
    }

    @Test
    void aBindHostOfTheDevelopersOwnIsLeftAlone() {
        assertThat(RunLocal.bindLoopbackUnlessTold("192.168.1.5")).isEmpty();
        assertThat(RunLocal.bindLoopbackUnlessTold("")).isNotEmpty();
    }

    /** profile-store.yml as run-local loads it, with its dw.* system properties. */
    private static ProfileStoreConfiguration load(Map<String, String> dwProperties) throws Exception {
        dwProperties.forEach((name, value) -> System.setProperty(PREFIX + name.substring("dw".length()), value));
        try {
            return new YamlConfigurationFactory<>(ProfileStoreConfiguration.class, Validators.newValidator(),
                    Jackson.newObjectMapper(), PREFIX)
                    .build(new SubstitutingSourceProvider(new FileOrClasspathConfigurationSourceProvider(),
                            new EnvironmentVariableSubstitutor(false)), RunLocal.CONFIG);
        } finally {
            dwProperties.keySet().forEach(name -> System.clearProperty(PREFIX + name.substring("dw".length())));
        }
    }
}
