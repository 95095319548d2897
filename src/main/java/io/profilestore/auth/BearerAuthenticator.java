package io.profilestore.auth;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.auth.Authenticator;
import io.dropwizard.auth.Authorizer;
import io.dropwizard.jersey.validation.Validators;
import jakarta.validation.Validator;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bearer token is a JWT (three dot-separated parts) or an API key; either gives the caller and its roles, and
 * a role check is a set lookup.
 */
public final class BearerAuthenticator implements Authenticator<String, Caller>, Authorizer<Caller> {

    private static final Logger LOG = LoggerFactory.getLogger(BearerAuthenticator.class);

    private final List<ApiKeys.Entry> inline;
    private final boolean keysForPeople;
    private final JwtVerifier jwt;
    private volatile ApiKeys keys;

    BearerAuthenticator(List<ApiKeys.Entry> inline, List<ApiKeys.Entry> fromFile, boolean keysForPeople, JwtVerifier jwt) {
        this.inline = List.copyOf(inline);
        this.keysForPeople = keysForPeople;
        this.jwt = jwt;
        this.keys = keys(fromFile);
    }

    /** The keys of the configuration and its keys file, and its JWT provider, each read once. */
    public static BearerAuthenticator of(AuthSettings settings) {
        var fromFile = settings.apiKeysFile.isEmpty() ? List.<ApiKeys.Entry>of() : readKeys(settings.apiKeysFile);
        return new BearerAuthenticator(settings.apiKeys, fromFile, settings.apiKeysForPeople,
                settings.jwt() == null ? null : new JwtVerifier(settings.jwt()));
    }

    /**
     * The keys file's new content: every key in it replaces every key read from it before, so that a key removed is
     * refused from now on; the configuration's own keys stay. A file that cannot be read, or holds an entry the service
     * would not start with, is refused whole.
     */
    public void replaceFileKeys(byte[] content) throws IOException {
        keys = keys(valid(KEYS_FILE.readValue(content, new TypeReference<List<ApiKeys.Entry>>() { })));
    }

    /** The file's entries, held to the rules the configuration's own are: a name, a hash, roles. */
    private static List<ApiKeys.Entry> valid(List<ApiKeys.Entry> entries) {
        if (entries == null) {
            throw new IllegalArgumentException("the keys file holds no list");
        }
        for (int i = 0; i < entries.size(); i++) {
            var entry = entries.get(i);
            if (entry == null) {
                throw new IllegalArgumentException("entry " + (i + 1) + " of the keys file is empty");
            }
            for (var violation : VALIDATOR.validate(entry)) {
                throw new IllegalArgumentException("entry " + (i + 1) + " of the keys file: " + violation.getPropertyPath()
                        + " " + violation.getMessage());
            }
        }
        return entries;
    }

    private static final Validator VALIDATOR = Validators.newValidator();

    /** The JWT verifier, or null when JWTs are not taken. */
    public JwtVerifier jwt() {
        return jwt;
    }

    private ApiKeys keys(List<ApiKeys.Entry> fromFile) {
        var entries = new ArrayList<>(inline);
        entries.addAll(fromFile);
        var made = new ApiKeys(entries, keysForPeople);
        if (!keysForPeople && made.peoplesKeys() > 0) {
            LOG.warn("{} API keys are people's and refused (auth.apiKeysForPeople is off): people sign in through the "
                    + "organisation's provider", made.peoplesKeys());
        }
        return made;
    }

    private static final ObjectMapper KEYS_FILE = new ObjectMapper(new YAMLFactory());

    private static List<ApiKeys.Entry> readKeys(String path) {
        try {
            return valid(KEYS_FILE.readValue(new File(path), new TypeReference<List<ApiKeys.Entry>>() { }));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the API keys file " + path, e);
        }
    }

    @Override
    public Optional<Caller> authenticate(String token) {
        if (token == null || token.isBlank() || token.length() > 8192) {
            return Optional.empty();
        }
        if (token.chars().filter(c -> c == '.').count() == 2) {
            return jwt == null ? Optional.empty() : jwt.authenticate(token);
        }
        return keys.authenticate(token);
    }

    @Override
    public boolean authorize(Caller caller, String role, ContainerRequestContext request) {
        return caller.roles().stream().anyMatch(r -> r.roleName().equals(role));
    }
}
