package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.ApplicationCommand;
import java.time.Duration;
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
        var config = bootstrap.getConfigurationFactoryFactory().create(ProfileStoreConfiguration.class, validator,
                bootstrap.getObjectMapper(), "dw").build();

        assertThat(validator.validate(config)).isEmpty();
        assertThat(((DefaultLoggingFactory) config.getLoggingFactory()).getLoggers())
                .as("loggers that only the bundled file quiets")
                .containsKeys("com.datastax.oss.driver", "org.flywaydb");
    }

    @Test
    void checkWithNoFileSaysTheConfigurationIsOk() throws Exception {
        var run = ApplicationCommand.runBare(Duration.ofSeconds(60), "check");
        assertThat(run.exitCode()).as("check:%n%s", run.output()).isZero();
        assertThat(run.output()).doesNotContain("has an error");
    }
}
