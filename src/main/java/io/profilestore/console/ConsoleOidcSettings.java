package io.profilestore.console;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.auth.Loopback;
import io.profilestore.support.StrippedText;
import jakarta.validation.constraints.NotBlank;
import java.net.URI;

/**
 * Where the console sends an operator to sign in: a public client of the provider (no secret; the code is
 * protected by PKCE), whose redirect URI is the console's own address ({@code https://…/console/}). The tokens it
 * gets are checked by the service like any other JWT (auth.jwt: issuer, audience, keys, roles claim). All three of
 * the endpoints and the client id, or none (then the console asks for API keys only).
 */
public class ConsoleOidcSettings {

    @JsonDeserialize(using = StrippedText.class)
    public String authorizationEndpoint = "";

    @JsonDeserialize(using = StrippedText.class)
    public String tokenEndpoint = "";

    /** A sign-in page or token answer swapped in transit hands the console someone else's token: https only. */
    @JsonIgnore
    @ValidationMethod(message = "console.oidc's endpoints must be https:// (plain http only to localhost, "
            + "127.0.0.0/8 or ::1)")
    public boolean isTrusted() {
        return (authorizationEndpoint.isBlank() || Loopback.isHttpsOrLocalHttp(authorizationEndpoint))
                && (tokenEndpoint.isBlank() || Loopback.isHttpsOrLocalHttp(tokenEndpoint));
    }

    @JsonDeserialize(using = StrippedText.class)
    public String clientId = "";

    @NotBlank
    public String scope = "openid";

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
        var uri = URI.create(tokenEndpoint);
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }
}
