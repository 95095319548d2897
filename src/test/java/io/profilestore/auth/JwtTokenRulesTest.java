package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jwt.JWTClaimsSet;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.util.Duration;
import io.profilestore.testing.TestAuth;
import jakarta.validation.ConstraintViolation;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a JWT must be besides signed, from the issuer, for the audience and unexpired: an access token by its
 * {@code typ} (an ID token for the same audience is refused), valid for no longer than the maximum lifetime, issued
 * no later than now; and the allowed clock skew has a bound.
 */
class JwtTokenRulesTest {

    private static JwtSettings settings() {
        var settings = new JwtSettings();
        settings.jwksFile = TestAuth.jwksFile().toString();
        settings.issuer = TestAuth.ISSUER;
        return settings;
    }

    private static JWTClaimsSet.Builder claims(Instant issued, Instant expires) {
        var builder = new JWTClaimsSet.Builder().subject("vera").issuer(TestAuth.ISSUER).audience(TestAuth.AUDIENCE)
                .claim("roles", List.of("operator")).expirationTime(Date.from(expires));
        return issued == null ? builder : builder.issueTime(Date.from(issued));
    }

    private static String token(JOSEObjectType type) {
        var now = Instant.now();
        return TestAuth.signed(claims(now, now.plusSeconds(300)).build(), type);
    }

    @Test
    void onlyAnAccessTokenByItsTypeIsTaken() {
        var verifier = new JwtVerifier(settings());

        assertThat(verifier.authenticate(token(TestAuth.ACCESS_TOKEN))).isPresent();
        assertThat(verifier.authenticate(token(new JOSEObjectType("application/AT+JWT")))).as("case, prefix").isPresent();
        assertThat(verifier.authenticate(token(JOSEObjectType.JWT))).as("an ID token, typed JWT").isEmpty();
        assertThat(verifier.authenticate(token(null))).as("untyped").isEmpty();
    }

    @Test
    void aProviderThatTypesItsAccessTokensJwtIsNamedSo() {
        var settings = settings();
        settings.tokenTypes = List.of("JWT");
        var verifier = new JwtVerifier(settings);

        assertThat(verifier.authenticate(token(JOSEObjectType.JWT))).isPresent();
        assertThat(verifier.authenticate(token(TestAuth.ACCESS_TOKEN))).isEmpty();
    }

    @Test
    void aTokenValidForLongerThanTheMaximumIsRefusedWhateverItsExpiry() {
        var settings = settings();
        settings.maxTokenLifetime = Duration.minutes(60);
        var verifier = new JwtVerifier(settings);
        var now = Instant.now();

        assertThat(verifier.authenticate(TestAuth.signed(claims(now, now.plusSeconds(3630)).build(), TestAuth.ACCESS_TOKEN)))
                .as("an hour, the maximum, and the 30 s of skew").isPresent();
        assertThat(verifier.authenticate(TestAuth.signed(claims(now, now.plusSeconds(3631)).build(), TestAuth.ACCESS_TOKEN)))
                .isEmpty();
        assertThat(verifier.authenticate(TestAuth.signed(claims(now.minusSeconds(86_400 * 30), now.plusSeconds(60)).build(),
                TestAuth.ACCESS_TOKEN))).as("issued a month ago, good for a minute more").isEmpty();
        assertThat(verifier.authenticate(TestAuth.signed(claims(null, now.plusSeconds(60)).build(), TestAuth.ACCESS_TOKEN)))
                .as("no iat: its lifetime unknown").isEmpty();
    }

    @Test
    void aTokenIssuedInTheFutureIsRefused() {
        var verifier = new JwtVerifier(settings());
        var later = Instant.now().plusSeconds(120);

        assertThat(verifier.authenticate(TestAuth.signed(claims(later, later.plusSeconds(300)).build(),
                TestAuth.ACCESS_TOKEN))).isEmpty();
    }

    @Test
    void aSubjectTheAuditTrailCouldNotHoldIsRefused() {
        var verifier = new JwtVerifier(settings());
        var now = Instant.now();

        for (String subject : List.of("x".repeat(JwtVerifier.MAX_SUBJECT + 1), "vera\u0000", "vera\nforged log line")) {
            var claims = claims(now, now.plusSeconds(60)).subject(subject).build();
            assertThat(verifier.authenticate(TestAuth.signed(claims, TestAuth.ACCESS_TOKEN))).as(subject.length() + " chars")
                    .isEmpty();
        }
        var longest = claims(now, now.plusSeconds(60)).subject("x".repeat(JwtVerifier.MAX_SUBJECT)).build();
        assertThat(verifier.authenticate(TestAuth.signed(longest, TestAuth.ACCESS_TOKEN))).isPresent();
    }

    @Test
    void theSkewAndTheLifetimeHaveBounds() {
        var settings = settings();
        settings.clockSkew = Duration.minutes(10);
        settings.maxTokenLifetime = Duration.days(2);

        assertThat(Validators.newValidator().validate(settings)).extracting(ConstraintViolation::getPropertyPath)
                .extracting(Object::toString).containsExactlyInAnyOrder("clockSkew", "maxTokenLifetime");
    }
}
