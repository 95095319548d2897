package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.PersonalData;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A credential dies within seconds of its revocation, without a restart: a key removed from the keys file is refused on
 * the API's port and the admin port, a key added is taken, a file that cannot be read leaves the keys as they were;
 * a signing key withdrawn from the JWT key set file no longer lets its tokens in, and one rotated in does.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RevocationIT {

    /** The service's files, copies of the tests' own that this class changes, replaced as Kubernetes replaces them. */
    static final Path KEYS = copy(TestAuth.keysFile(), "revocation-keys", ".yml");
    static final Path JWKS = copy(TestAuth.jwksFile(), "revocation-jwks", ".json");
    /** What a revocation may take: the check's interval and a margin for a loaded machine. */
    static final Duration WITHIN = Duration.ofSeconds(15);

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(Map.of(
                    "auth.apiKeysFile", KEYS.toString(),
                    "auth.jwt.jwksFile", JWKS.toString(),
                    "auth.reloadEvery", "1s")));

    @Test
    void aKeyRemovedFromTheFileIsRefusedWithinSecondsAndOneAddedIsTaken() throws Exception {
        var operator = new Api(APP.getLocalPort()).as(TestAuth.OPERATOR);
        var adminOnAdminPort = operator.as(TestAuth.ADMIN).onPort(APP.getAdminPort());
        assertThat(me(operator)).isEqualTo(200);
        assertThat(adminOnAdminPort.send("GET", "/threads", null, null, Map.of()).status()).isEqualTo(200);
        String original = Files.readString(KEYS);
        try {
            replace(KEYS, without(without(original, "test-operator"), "test-admin"));
            await("the revoked keys refused").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                    .until(() -> me(operator) == 401
                            && adminOnAdminPort.send("GET", "/threads", null, null, Map.of()).status() == 401);
            assertThat(me(operator.as(TestAuth.PLATFORM))).as("the keys left in the file").isEqualTo(200);

            replace(KEYS, "- name: [not, a, name\n");
            // a broken file is refused whole: the keys read before stay (the platform's in, the operator still out)
            await("a check of the broken file").during(Duration.ofSeconds(3)).atMost(WITHIN)
                    .until(() -> me(operator.as(TestAuth.PLATFORM)) == 200 && me(operator) == 401);

            replace(KEYS, original);
            await("the key given back").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                    .until(() -> me(operator) == 200);
        } finally {
            replace(KEYS, original);
        }
    }

    @Test
    void aSigningKeyWithdrawnFromTheKeySetIsRefusedAndOneRotatedInIsTaken() throws Exception {
        var api = new Api(APP.getLocalPort());
        String old = TestAuth.jwt("vera.operator", List.of("operator"), Duration.ofMinutes(10));
        var next = new RSAKeyGenerator(2048).keyID("rotated-in").generate();
        String rotated = signed(next);
        assertThat(me(api.as(old))).isEqualTo(200);
        assertThat(me(api.as(rotated))).as("a key the set does not hold yet").isEqualTo(401);
        String original = Files.readString(JWKS);
        try {
            replace(JWKS, new JWKSet(next.toPublicJWK()).toString());
            await("the rotation taken").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                    .until(() -> me(api.as(rotated)) == 200 && me(api.as(old)) == 401);
        } finally {
            replace(JWKS, original);
        }
        await("the tests' key given back").atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                .until(() -> me(api.as(old)) == 200);
    }

    private static int me(Api api) {
        return api.send("GET", "/v1/me", null, null, Map.of()).status();
    }

    /** The keys file without the entry of this name (entries are 3 or 4 lines, each beginning "- name:"). */
    private static String without(String yaml, String name) {
        var kept = new StringBuilder();
        boolean skipping = false;
        for (String line : yaml.split("\n")) {
            if (line.startsWith("- name: ")) {
                skipping = line.equals("- name: " + name);
            }
            if (!skipping) {
                kept.append(line).append('\n');
            }
        }
        assertThat(kept.toString()).as("an entry removed").isNotEqualTo(yaml);
        return kept.toString();
    }

    private static String signed(RSAKey key) throws Exception {
        var now = Instant.now();
        var claims = new JWTClaimsSet.Builder().subject("rotated.operator").issuer(TestAuth.ISSUER)
                .audience(TestAuth.AUDIENCE).claim("roles", List.of("operator")).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(600))).build();
        var jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(TestAuth.ACCESS_TOKEN).build(), claims);
        jwt.sign(new RSASSASigner(key));
        String token = jwt.serialize();
        PersonalData.note(token);
        return token;
    }

    /** Written beside, then moved over: a reader sees the old file or the new one, never half of it. */
    private static void replace(Path file, String content) throws IOException {
        var next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, content);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path copy(Path from, String prefix, String suffix) {
        try {
            var to = Files.createTempFile(prefix, suffix);
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            to.toFile().deleteOnExit();
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
