package io.profilestore.auth;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.auth.Authenticator;
import io.dropwizard.auth.Authorizer;
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

    private final ApiKeys keys;
    private final JwtVerifier jwt;

    public BearerAuthenticator(ApiKeys keys, JwtVerifier jwt) {
        this.keys = keys;
        this.jwt = jwt;
    }

    public static BearerAuthenticator of(AuthSettings settings) {
        var entries = new ArrayList<>(settings.apiKeys);
        if (!settings.apiKeysFile.isEmpty()) {
            entries.addAll(readKeys(settings.apiKeysFile));
        }
        var keys = new ApiKeys(entries, settings.apiKeysForPeople);
        if (!settings.apiKeysForPeople && keys.peoplesKeys() > 0) {
            LOG.warn("{} API keys are people's and refused (auth.apiKeysForPeople is off): people sign in through the "
                    + "organisation's provider", keys.peoplesKeys());
        }
        return new BearerAuthenticator(keys,
                settings.jwt() == null ? null : new JwtVerifier(settings.jwt()));
    }

    private static List<ApiKeys.Entry> readKeys(String path) {
        try {
            return new ObjectMapper(new YAMLFactory()).readValue(new File(path), new TypeReference<List<ApiKeys.Entry>>() { });
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
