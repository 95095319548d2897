package io.profilestore.console;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** The operator console: served at {@code /console/} by the API role unless turned off. */
public class ConsoleSettings {

    public boolean enabled = true;

    /** Sign-in with the configured OIDC provider (authorization code with PKCE); unset: API keys only. */
    @Valid
    @NotNull
    public ConsoleOidcSettings oidc = new ConsoleOidcSettings();
}
