package io.profilestore.cli;

import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the configuration from a file when one exists at the path, else from the classpath: {@code server
 * profile-store.yml} works from any directory with the defaults shipped in the jar, and a mounted file wins.
 */
public class FileOrClasspathConfigurationSourceProvider implements ConfigurationSourceProvider {

    private final ConfigurationSourceProvider files = new FileConfigurationSourceProvider();
    private final ConfigurationSourceProvider resources = new ResourceConfigurationSourceProvider();

    @Override
    public InputStream open(String path) throws IOException {
        return new File(path).isFile() ? files.open(path) : resources.open(path);
    }
}
