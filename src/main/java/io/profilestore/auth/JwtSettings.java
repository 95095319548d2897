package io.profilestore.auth;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.CommaSeparated;
import io.profilestore.support.StrippedText;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JWTs of an OIDC provider: verified against its key set (a file, or its {@code jwks_uri}), from the configured
 * issuer, for the configured audience, not expired; roles from a claim.
 */
public class JwtSettings {

    /** The provider's key set as a URL (its jwks_uri); or {@link #jwksFile}. Empty: none. */
    @JsonDeserialize(using = StrippedText.class)
    public String jwksUrl = "";

    /** The key set as a local file (a mounted secret, or tests); it wins over {@link #jwksUrl}. Empty: none. */
    @JsonDeserialize(using = StrippedText.class)
    public String jwksFile = "";

    @NotEmpty
    public String issuer;

    /** The {@code aud} a token must carry; unless set, the bundled file's, as docs/security.md gives it. */
    @NotEmpty
    public String audience = "profile-store";

    /** The claim holding the caller's roles: a list of role names, or a space-separated string. */
    @NotEmpty
    public String rolesClaim = "roles";

    /** How far the provider's clock may be from ours, at most 5 minutes: more would keep an expired token alive. */
    @NotNull
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    public Duration clockSkew = Duration.seconds(30);

    /**
     * The longest a token may be valid ({@code exp} minus {@code iat}, both required): a token that leaks lives no
     * longer than this, whatever the provider issued. People's tokens are minutes long; 2 hours covers providers that
     * issue an hour or more (Entra ID: 60 to 90 minutes, and an {@code iat} set back 5 minutes). The clock skew is
     * allowed on top, as on the expiry.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MINUTES)
    @MaxDuration(value = 24, unit = TimeUnit.HOURS)
    public Duration maxTokenLifetime = Duration.hours(2);

    /**
     * The JOSE {@code typ} a token's header must carry (compared ignoring case, with or without {@code application/}):
     * RFC 9068's {@code at+jwt} marks an access token, so that an ID token issued for the same audience is refused. A
     * provider that types its access tokens {@code JWT} (Entra ID, Keycloak before its client's at+jwt setting) needs
     * {@code JWT} here; then no client of it may be named as {@link #audience}, or its ID tokens would pass.
     */
    @NotEmpty
    @JsonDeserialize(using = CommaSeparated.class)
    public List<String> tokenTypes = List.of("at+jwt");

    /**
     * The clients whose tokens are machines' (client systems, audited after the answer, a machine's limits): a token's
     * {@code client_id} (RFC 9068), or its {@code azp} when it has none, must be one of them. Every other token is a
     * person's, whatever its roles. A list, or one string of names separated by commas (from the environment).
     */
    @NotNull
    @JsonDeserialize(using = CommaSeparated.class)
    public List<String> machineClients = List.of();

    /** Whoever can change the key set in transit can forge any caller, an admin too: https only. */
    @JsonIgnore
    @ValidationMethod(message = "jwksUrl must be https:// (plain http only to localhost, 127.0.0.0/8 or ::1)")
    public boolean isJwksUrlTrusted() {
        return jwksUrl.isEmpty() || Loopback.isHttpsOrLocalHttp(jwksUrl);
    }

    /** Whether a key set is named: without one, the rest of the block is not used. */
    public boolean hasKeySet() {
        return !jwksFile.isEmpty() || !jwksUrl.isEmpty();
    }
}
