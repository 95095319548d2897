package io.profilestore.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.audit.AuditSettings;
import io.profilestore.auth.AuthSettings;
import io.profilestore.backends.Backends;
import io.profilestore.backends.CassandraFactory;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.backends.PostgresFactory;
import io.profilestore.backends.RabbitMqFactory;
import io.profilestore.changestream.ChangeStreamSettings;
import io.profilestore.console.ConsoleSettings;
import io.profilestore.history.HistorySettings;
import io.profilestore.indexer.IndexerSettings;
import io.profilestore.limits.RateLimitSettings;
import io.profilestore.profiles.ProfileSettings;
import io.profilestore.search.SearchSettings;
import io.profilestore.users.UserSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** The service's YAML: one section per backing service, plus Dropwizard's own (server, logging, metrics). */
@AuthOffOnlyOnLoopback
public class ProfileStoreConfiguration extends Configuration {

    /** What a process of the service does; set by the command that starts it, not by the YAML. */
    public enum Role {
        /** {@code server}: the API and the outbox relay, and the indexer too when {@code indexer.inProcess}. */
        API,
        /** {@code indexer}: the indexer alone. */
        INDEXER
    }

    @JsonIgnore
    public Role role = Role.API;

    @Valid
    @NotNull
    public IndexerSettings indexer = new IndexerSettings();

    @Valid
    @NotNull
    public UserSettings users = new UserSettings();

    @Valid
    @NotNull
    public AuthSettings auth = new AuthSettings();

    @Valid
    @NotNull
    public AuditSettings audit = new AuditSettings();

    @Valid
    @NotNull
    public RateLimitSettings limits = new RateLimitSettings();

    @Valid
    @NotNull
    public CassandraFactory cassandra = new CassandraFactory();

    @Valid
    @NotNull
    public ElasticsearchFactory elasticsearch = new ElasticsearchFactory();

    @Valid
    @NotNull
    public PostgresFactory postgres = new PostgresFactory();

    @Valid
    @NotNull
    public RabbitMqFactory rabbitmq = new RabbitMqFactory();

    @Valid
    @NotNull
    public ProfileSettings profiles = new ProfileSettings();

    @Valid
    @NotNull
    public HistorySettings history = new HistorySettings();

    @Valid
    @NotNull
    public SearchSettings search = new SearchSettings();

    @Valid
    @NotNull
    public ChangeStreamSettings changeStream = new ChangeStreamSettings();

    @Valid
    @NotNull
    public ConsoleSettings console = new ConsoleSettings();

    /** The console's sign-in hands the page a provider's token, which only auth.jwt can let in. */
    @JsonIgnore
    @ValidationMethod(message = "console.oidc is set, but auth.jwt names no key set (jwksUrl or jwksFile): the "
            + "tokens people get from the provider would be refused")
    public boolean isConsoleSignInAccepted() {
        return !auth.enabled || !console.oidc.isConfigured() || auth.jwt() != null;
    }

    /**
     * The console's ID tokens carry its client id as their audience: were it the audience the service accepts, an ID
     * token would pass wherever the token types let a {@code JWT} in.
     */
    @JsonIgnore
    @ValidationMethod(message = "console.oidc.clientId is auth.jwt.audience: the console's ID tokens would be taken as "
            + "access tokens; give the console a client of its own")
    public boolean isConsoleClientNotTheAudience() {
        return !console.oidc.isConfigured() || auth.jwt() == null || !console.oidc.clientId.equals(auth.jwt().audience);
    }

    /**
     * The development key is written in the source: numbers hashed with it are as good as in clear. Only a local run,
     * which authentication off confines to this machine, may do without a key of its own.
     */
    @JsonIgnore
    @ValidationMethod(message = "search.numberKeys is unset (PROFILE_STORE_NUMBER_KEYS): with authentication on, the "
            + "index needs a key of its own for numbers: k1: and the output of openssl rand -base64 32, kept as "
            + "long as the index (against the stack of ./run-local, the content of its number-keys file; docs/security.md, "
            + "Numbers in the index)")
    public boolean isNumberKeyGiven() {
        return !auth.enabled || (search.numberKeys != null && !search.numberKeys.isBlank());
    }

    /** With people's keys refused, the console's page has no way in but the provider's sign-in. */
    @JsonIgnore
    @ValidationMethod(message = "auth.apiKeysForPeople is off and the console is on without console.oidc: nobody could "
            + "sign in to it; set console.oidc, or console.enabled: false")
    public boolean isConsoleReachable() {
        return !auth.enabled || auth.apiKeysForPeople || !console.enabled || console.oidc.isConfigured();
    }

    public ProfileStoreConfiguration() {
        setServerFactory(new ProfileStoreServerFactory());
    }

    /**
     * A {@code server} section without a {@code type} is a {@link ProfileStoreServerFactory}: what it leaves out has
     * the bundled file's values, not Dropwizard's.
     */
    @Override
    @JsonProperty("server")
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type", defaultImpl = ProfileStoreServerFactory.class)
    public void setServerFactory(ServerFactory factory) {
        super.setServerFactory(factory);
    }

    /** The settings of the four backing services' clients. */
    public Backends.Settings backends() {
        return new Backends.Settings(cassandra, elasticsearch, postgres, rabbitmq);
    }
}
