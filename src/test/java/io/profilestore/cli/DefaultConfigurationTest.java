package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.TestAuth;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A command given no configuration file reads the bundled profile-store.yml (docs/operations/configuration.md), the
 * same file the jar runs with when it is named.
 */
class DefaultConfigurationTest {

    @Test
    void withNoFileACommandGetsTheBundledFileAndItIsValid() throws Exception {
        var bootstrap = new Bootstrap<>(new ProfileStoreApplication());
        bootstrap.getApplication().initialize(bootstrap);
        var validator = bootstrap.getValidatorFactory().getValidator();
        // what Dropwizard's ConfiguredCommand does when the command's file argument is left out
        assertThatThrownBy(() -> bootstrap.getConfigurationFactoryFactory().create(ProfileStoreConfiguration.class,
                validator, bootstrap.getObjectMapper(), "dw").build()).hasMessageContaining("PROFILE_STORE_NUMBER_KEYS");
        // the same file, read without validating, to look at it
        var config = bootstrap.getConfigurationFactoryFactory().create(ProfileStoreConfiguration.class, null,
                bootstrap.getObjectMapper(), "dw").build();

        // with authentication on, as it is by default, the one thing to give is the index's number key
        assertThat(validator.validate(config)).singleElement()
                .satisfies(violation -> assertThat(violation.getMessage()).contains("PROFILE_STORE_NUMBER_KEYS"));
        config.search.numberKeys = TestAuth.NUMBER_KEYS;
        assertThat(validator.validate(config)).isEmpty();
        assertThat(((DefaultLoggingFactory) config.getLoggingFactory()).getLoggers())
                .as("loggers that only the bundled file quiets")
                .containsKeys("com.datastax.oss.driver", "org.flywaydb");
    }

    @Test
    void checkWithNoFileSaysTheConfigurationIsOkOnceTheNumberKeyIsGiven() throws Exception {
        var run = ApplicationCommand.runBare(Map.of("PROFILE_STORE_NUMBER_KEYS", TestAuth.NUMBER_KEYS),
                Duration.ofSeconds(60), "check");
        assertThat(run.exitCode()).as("check:%n%s", run.output()).isZero();
        assertThat(run.output()).doesNotContain("has an error");

        var withoutKey = ApplicationCommand.runBare(Duration.ofSeconds(60), "check");
        assertThat(withoutKey.exitCode()).isNotZero();
        assertThat(withoutKey.output()).contains("search.numberKeys is unset (PROFILE_STORE_NUMBER_KEYS)");
    }
}
