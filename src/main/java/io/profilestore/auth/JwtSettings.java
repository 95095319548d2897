package io.profilestore.auth;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.CommaSeparated;
import io.profilestore.support.StrippedText;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.List;

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

    @NotNull
    public Duration clockSkew = Duration.seconds(30);

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
