package io.profilestore.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationFactory;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.DefaultConfigurationFactoryFactory;
import io.dropwizard.configuration.YamlConfigurationFactory;
import jakarta.validation.Validator;
import java.io.IOException;

/**
 * Dropwizard's configuration factories, but a command given no file reads the bundled {@code profile-store.yml}
 * from the jar, with the environment's values like any file. Dropwizard's own default would be the configuration
 * class's fields as they are initialised, which is not the configuration the docs describe.
 */
public class BundledDefaultConfigurationFactoryFactory<T> extends DefaultConfigurationFactoryFactory<T> {

    /** The configuration in the jar (src/main/resources). */
    public static final String BUNDLED = "profile-store.yml";

    private final ConfigurationSourceProvider jar;

    /** @param jar reads the jar's resources; a file of the working directory by that name is not the default */
    public BundledDefaultConfigurationFactoryFactory(ConfigurationSourceProvider jar) {
        this.jar = jar;
    }

    @Override
    public ConfigurationFactory<T> create(Class<T> klass, Validator validator, ObjectMapper objectMapper,
            String propertyPrefix) {
        return new YamlConfigurationFactory<>(klass, validator, configureObjectMapper(objectMapper.copy()),
                propertyPrefix) {
            @Override
            public T build() throws IOException, ConfigurationException {
                return build(jar, BUNDLED);
            }
        };
    }
}
