package io.profilestore.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;

/**
 * JWTs of an OIDC provider: verified against its key set (a file, or its {@code jwks_uri}), from the configured
 * issuer, for the configured audience, not expired; roles from a claim.
 */
public class JwtSettings {

    /** The provider's key set as a URL (its jwks_uri); or {@link #jwksFile}. */
    private String jwksUrl;

    /** The key set as a local file (a mounted secret, or tests). */
    private String jwksFile;

    @NotEmpty
    private String issuer;

    @NotEmpty
    private String audience;

    /** The claim holding the caller's roles: a list of role names, or a space-separated string. */
    @NotEmpty
    private String rolesClaim = "roles";

    @NotNull
    private Duration clockSkew = Duration.seconds(30);

    @JsonProperty
    public String getJwksUrl() {
        return jwksUrl;
    }

    @JsonProperty
    public void setJwksUrl(String jwksUrl) {
        this.jwksUrl = jwksUrl == null || jwksUrl.isBlank() ? null : jwksUrl;
    }

    @JsonProperty
    public String getJwksFile() {
        return jwksFile;
    }

    @JsonProperty
    public void setJwksFile(String jwksFile) {
        this.jwksFile = jwksFile == null || jwksFile.isBlank() ? null : jwksFile;
    }

    @JsonProperty
    public String getIssuer() {
        return issuer;
    }

    @JsonProperty
    public void setIssuer(String issuer) {
        this.issuer = issuer;
    }

    @JsonProperty
    public String getAudience() {
        return audience;
    }

    @JsonProperty
    public void setAudience(String audience) {
        this.audience = audience;
    }

    @JsonProperty
    public String getRolesClaim() {
        return rolesClaim;
    }

    @JsonProperty
    public void setRolesClaim(String rolesClaim) {
        this.rolesClaim = rolesClaim;
    }

    @JsonProperty
    public Duration getClockSkew() {
        return clockSkew;
    }

    @JsonProperty
    public void setClockSkew(Duration clockSkew) {
        this.clockSkew = clockSkew;
    }
}
