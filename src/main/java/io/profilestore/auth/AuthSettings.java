package io.profilestore.auth;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.StrippedText;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Who may call the service: API keys (inline, or in a file mounted from a secret) and JWTs of an OIDC provider.
 * Off only on a developer's machine ({@code ./run-local}); the default is on.
 */
public class AuthSettings {

    public boolean enabled = true;

    @Valid
    @JsonSetter(nulls = Nulls.AS_EMPTY)
    public List<ApiKeys.Entry> apiKeys = List.of();

    /**
     * Whether a person may use an API key. Off, a person's key (any key not made for a machine) is refused, and people
     * sign in through the organisation's provider only, with its second factor and its tokens' expiry; machines keep
     * their keys. Off needs {@link #jwt()}: nobody could sign in as a person otherwise.
     */
    public boolean apiKeysForPeople = true;

    /**
     * How often the keys file, a JWT key set file and the API's TLS key store are looked at again: a key removed from a
     * file is refused, a key store renewed is served, within this once the file changes (a mounted Secret changes some
     * time after the Secret does: the kubelet's sync, about a minute).
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    public Duration reloadEvery = Duration.seconds(5);

    /** A YAML or JSON file with more keys: a list of {name, hash, roles, machine}. Empty: none. */
    @JsonDeserialize(using = StrippedText.class)
    public String apiKeysFile = "";

    /**
     * Null unless the block names a key set: the YAML always has a jwt block, with empty values where JWTs are not
     * used, and such a block is neither validated nor used.
     */
    @Valid
    private JwtSettings jwt;

    @JsonIgnore
    @ValidationMethod(message = "auth.apiKeysForPeople is off, so people sign in with JWTs only: auth.jwt needs a key "
            + "set (jwksUrl or jwksFile)")
    public boolean isPeopleSignInPossible() {
        return !enabled || apiKeysForPeople || jwt != null;
    }

    /** The JWTs' settings, or null when callers are not let in by JWT. */
    public JwtSettings jwt() {
        return jwt;
    }

    @JsonProperty
    public void setJwt(JwtSettings jwt) {
        this.jwt = jwt == null || !jwt.hasKeySet() ? null : jwt;
    }
}
