package io.profilestore.console;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;

/**
 * Where the console sends an operator to sign in: a public client of the provider (no secret; the code is
 * protected by PKCE), whose redirect URI is the console's own address ({@code https://…/console/}). The tokens it
 * gets are checked by the service like any other JWT (auth.jwt: issuer, audience, keys, roles claim). All three of
 * the endpoints and the client id, or none (then the console asks for API keys only).
 */
public class ConsoleOidcSettings {

    @Pattern(regexp = "^$|^https?://\\S+$", message = "must be an http(s) URL")
    private String authorizationEndpoint = "";

    @Pattern(regexp = "^$|^https?://\\S+$", message = "must be an http(s) URL")
    private String tokenEndpoint = "";

    private String clientId = "";

    @NotBlank
    private String scope = "openid";

    @JsonProperty
    public String getAuthorizationEndpoint() {
        return authorizationEndpoint;
    }

    @JsonProperty
    public void setAuthorizationEndpoint(String authorizationEndpoint) {
        this.authorizationEndpoint = authorizationEndpoint == null ? "" : authorizationEndpoint.strip();
    }

    @JsonProperty
    public String getTokenEndpoint() {
        return tokenEndpoint;
    }

    @JsonProperty
    public void setTokenEndpoint(String tokenEndpoint) {
        this.tokenEndpoint = tokenEndpoint == null ? "" : tokenEndpoint.strip();
    }

    @JsonProperty
    public String getClientId() {
        return clientId;
    }

    @JsonProperty
    public void setClientId(String clientId) {
        this.clientId = clientId == null ? "" : clientId.strip();
    }

    @JsonProperty
    public String getScope() {
        return scope;
    }

    @JsonProperty
    public void setScope(String scope) {
        this.scope = scope;
    }

    @JsonIgnore
    public boolean isConfigured() {
        return !authorizationEndpoint.isBlank();
    }

    @JsonIgnore
    @ValidationMethod(message = "console.oidc needs authorizationEndpoint, tokenEndpoint and clientId together, or none")
    public boolean isWhole() {
        boolean any = !authorizationEndpoint.isBlank() || !tokenEndpoint.isBlank() || !clientId.isBlank();
        return !any || (!authorizationEndpoint.isBlank() && !tokenEndpoint.isBlank() && !clientId.isBlank());
    }

    /** The origin of the token endpoint: the only place besides its own that the console's page may call. */
    String tokenOrigin() {
        var uri = java.net.URI.create(tokenEndpoint);
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
