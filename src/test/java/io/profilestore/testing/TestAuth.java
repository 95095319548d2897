package io.profilestore.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.profilestore.auth.ApiKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * The credentials of the test run: an API key per role (and one with platform and admin, which the tests use
 * unless they say otherwise), in a keys file like production mounts; and an RSA key set standing in for an OIDC
 * provider, to mint JWTs.
 */
public final class TestAuth {

    public static final String ISSUER = "https://issuer.profile-store.test";
    public static final String AUDIENCE = "profile-store";
    /** The client whose tokens are machines' in the tests' configuration ({@code auth.jwt.machineClients}). */
    public static final String MACHINE_CLIENT = "test-machine-client";

    public static final String PLATFORM = "psk_test-platform-0123456789abcdefghijklmnopqrstuv";
    public static final String OPERATOR = "psk_test-operator-0123456789abcdefghijklmnopqrstuv";
    public static final String ADMIN = "psk_test-admin-0123456789abcdefghijklmnopqrstuvwxyz";
    public static final String EDITOR = "psk_test-editor-0123456789abcdefghijklmnopqrstuvwxy";
    public static final String PLATFORM_AND_ADMIN = "psk_test-everything-0123456789abcdefghijklmnopqrstu";

    private static final Map<String, List<String>> KEYS = Map.of(
            "test-platform", List.of("platform"),
            "test-operator", List.of("operator"),
            "test-admin", List.of("admin"),
            "test-editor", List.of("editor"),
            "test-platform-admin", List.of("platform", "admin"));
    private static final Map<String, String> TOKENS = Map.of(
            "test-platform", PLATFORM,
            "test-operator", OPERATOR,
            "test-admin", ADMIN,
            "test-editor", EDITOR,
            "test-platform-admin", PLATFORM_AND_ADMIN);

    static {
        // secrets, like personal data, must never reach a log: the log scan after the run looks for them too
        TOKENS.values().forEach(PersonalData::note);
    }

    /** The tests' key for numbers in the index (search.numberKeys): 32 bytes, written here like the keys above. */
    public static final String NUMBER_KEYS = "test:dGVzdHMnIGtleSBmb3IgbnVtYmVycyBpbiB0aGUgaW5kZXgh";

    /** The keys {@link #NUMBER_KEYS} gives, to build what the service sends to Elasticsearch. */
    public static io.profilestore.search.NumberKeys numberKeys() {
        return io.profilestore.search.NumberKeys.parse(NUMBER_KEYS);
    }

    /** RFC 9068's type of an access token, which the service asks for by default (auth.jwt.tokenTypes). */
    public static final JOSEObjectType ACCESS_TOKEN = new JOSEObjectType("at+jwt");

    private static Path keysFile;
    private static Path jwksFile;
    private static RSAKey signingKey;

    private TestAuth() {
    }

    /** The keys file: names, hashes and roles, never the tokens. */
    public static synchronized Path keysFile() {
        if (keysFile == null) {
            var yaml = new StringBuilder();
            // the platform's key is made for a machine, as production's is; the key with platform and admin is a
            // person's
            KEYS.forEach((name, roles) -> yaml.append("- name: ").append(name).append('\n')
                    .append("  hash: ").append(ApiKeys.hash(TOKENS.get(name))).append('\n')
                    .append("  roles: ").append(roles).append('\n')
                    .append(roles.equals(List.of("platform")) ? "  machine: true\n" : ""));
            keysFile = write("profile-store-test-keys", ".yml", yaml.toString());
        }
        return keysFile;
    }

    /** The public half of the signing key, as the provider's jwks_uri would serve it. */
    public static synchronized Path jwksFile() {
        if (jwksFile == null) {
            try {
                signingKey = new RSAKeyGenerator(2048).keyID("test-key").generate();
            } catch (JOSEException e) {
                throw new IllegalStateException(e);
            }
            jwksFile = write("profile-store-test-jwks", ".json", new JWKSet(signingKey.toPublicJWK()).toString());
        }
        return jwksFile;
    }

    /** A signed JWT issued to the machine client of the tests, with these roles, valid for the given time. */
    public static String machineJwt(String subject, List<String> roles, Duration validFor) {
        return jwt(subject, roles, validFor, Map.of("azp", MACHINE_CLIENT));
    }

    /** A signed JWT for the subject with these roles, valid for the given time (negative: expired): a person's. */
    public static String jwt(String subject, List<String> roles, Duration validFor) {
        return jwt(subject, roles, validFor, Map.of());
    }

    /** The same, with more claims (the client it was issued to: {@code azp} or {@code client_id}). */
    public static String jwt(String subject, List<String> roles, Duration validFor, Map<String, Object> more) {
        jwksFile();
        var builder = new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(AUDIENCE)
                .claim("roles", roles).issueTime(new Date()).expirationTime(Date.from(Instant.now().plus(validFor)));
        more.forEach(builder::claim);
        return signed(builder.build(), ACCESS_TOKEN);
    }

    /** These claims signed by the tests' provider, with this {@code typ} in the header (null: none). */
    public static String signed(JWTClaimsSet claims, JOSEObjectType type) {
        jwksFile();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signingKey.getKeyID()).type(type).build(),
                claims);
        try {
            jwt.sign(new RSASSASigner(signingKey));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        String token = jwt.serialize();
        // a JWT is a credential too: the log scan looks for every one the tests made
        PersonalData.note(token);
        return token;
    }

    private static Path write(String prefix, String suffix, String content) {
        try {
            var file = Files.createTempFile(prefix, suffix);
            Files.writeString(file, content);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
