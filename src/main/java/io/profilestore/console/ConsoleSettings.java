package io.profilestore.console;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;

/** The operator console: served at {@code /console/} by the API role unless turned off. */
public class ConsoleSettings {

    private boolean enabled = true;

    /** Sign-in with the configured OIDC provider (authorization code with PKCE); unset: API keys only. */
    @Valid
    @jakarta.validation.constraints.NotNull
    private ConsoleOidcSettings oidc = new ConsoleOidcSettings();

    @JsonProperty
    public boolean isEnabled() {
        return enabled;
    }

    @JsonProperty
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    @JsonProperty
    public ConsoleOidcSettings getOidc() {
        return oidc;
    }

    @JsonProperty
    public void setOidc(ConsoleOidcSettings oidc) {
        this.oidc = oidc;
    }
}
