package io.profilestore.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.text.StringSubstitutor;
import org.apache.commons.text.lookup.StringLookup;

/**
 * The configuration's {@code ${...}}: {@code ${NAME:-default}} reads the environment, {@code ${file:/path}}
 * reads a file (a mounted secret), trimmed of its trailing newline. Secrets never need to be written into the
 * YAML itself.
 */
public class SecretsSubstitutor extends StringSubstitutor {

    public SecretsSubstitutor() {
        super(lookup());
        setEnableUndefinedVariableException(false);
        setEscapeChar('$');
        setValueDelimiter(":-");
    }

    private static StringLookup lookup() {
        return key -> {
            if (key.startsWith("file:")) {
                try {
                    return Files.readString(Path.of(key.substring("file:".length()))).strip();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the secret file of ${" + key + "}", e);
                }
            }
            return System.getenv(key);
        };
    }
}
