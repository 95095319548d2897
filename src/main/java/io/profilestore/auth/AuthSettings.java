package io.profilestore.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.Valid;
import java.util.List;

/**
 * Who may call the service: API keys (inline, or in a file mounted from a secret) and JWTs of an OIDC provider.
 * Off only on a developer's machine ({@code ./run-local}); the default is on.
 */
public class AuthSettings {

    private boolean enabled = true;

    @Valid
    private List<ApiKeys.Entry> apiKeys = List.of();

    /** A YAML or JSON file with more keys: a list of {name, hash, roles}. */
    private String apiKeysFile;

    @Valid
    private JwtSettings jwt;

    @JsonProperty
    public boolean isEnabled() {
        return enabled;
    }

    @JsonProperty
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    @JsonProperty
    public List<ApiKeys.Entry> getApiKeys() {
        return apiKeys;
    }

    @JsonProperty
    public void setApiKeys(List<ApiKeys.Entry> apiKeys) {
        this.apiKeys = apiKeys == null ? List.of() : apiKeys;
    }

    @JsonProperty
    public String getApiKeysFile() {
        return apiKeysFile;
    }

    @JsonProperty
    public void setApiKeysFile(String apiKeysFile) {
        this.apiKeysFile = apiKeysFile == null || apiKeysFile.isBlank() ? null : apiKeysFile;
    }

    @JsonProperty
    public JwtSettings getJwt() {
        return jwt;
    }

    @JsonProperty
    public void setJwt(JwtSettings jwt) {
        this.jwt = jwt == null || (jwt.getJwksFile() == null && jwt.getJwksUrl() == null) ? null : jwt;
    }
}
