package io.profilestore;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.profilestore.audit.AuditSettings;
import io.profilestore.auth.AuthSettings;
import io.profilestore.backends.CassandraFactory;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.backends.PostgresFactory;
import io.profilestore.backends.RabbitMqFactory;
import io.profilestore.core.ProfileSettings;
import io.profilestore.core.UserSettings;
import io.profilestore.core.search.SearchSettings;
import io.profilestore.indexer.IndexerSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** The service's YAML: one section per backing service, plus Dropwizard's own (server, logging, metrics). */
public class ProfileStoreConfiguration extends Configuration {

    /** What a process of the service does; set by the command that starts it, not by the YAML. */
    public enum Role {
        /** {@code server}: the API and the outbox relay, and the indexer too when {@code indexer.inProcess}. */
        API,
        /** {@code indexer}: the indexer alone. */
        INDEXER
    }

    @JsonIgnore
    private Role role = Role.API;

    @Valid
    @NotNull
    private IndexerSettings indexer = new IndexerSettings();

    @Valid
    @NotNull
    private UserSettings users = new UserSettings();

    @Valid
    @NotNull
    private AuthSettings auth = new AuthSettings();

    @Valid
    @NotNull
    private AuditSettings audit = new AuditSettings();

    @JsonProperty
    public AuditSettings getAudit() {
        return audit;
    }

    @JsonProperty
    public void setAudit(AuditSettings audit) {
        this.audit = audit;
    }

    @JsonProperty
    public AuthSettings getAuth() {
        return auth;
    }

    @JsonProperty
    public void setAuth(AuthSettings auth) {
        this.auth = auth;
    }

    @JsonProperty
    public UserSettings getUsers() {
        return users;
    }

    @JsonProperty
    public void setUsers(UserSettings users) {
        this.users = users;
    }

    public Role getRole() {
        return role;
    }

    public void setRole(Role role) {
        this.role = role;
    }

    @JsonProperty
    public IndexerSettings getIndexer() {
        return indexer;
    }

    @JsonProperty
    public void setIndexer(IndexerSettings indexer) {
        this.indexer = indexer;
    }

    @Valid
    @NotNull
    private CassandraFactory cassandra = new CassandraFactory();

    @Valid
    @NotNull
    private ElasticsearchFactory elasticsearch = new ElasticsearchFactory();

    @Valid
    @NotNull
    private PostgresFactory postgres = new PostgresFactory();

    @Valid
    @NotNull
    private RabbitMqFactory rabbitmq = new RabbitMqFactory();

    @Valid
    @NotNull
    private ProfileSettings profiles = new ProfileSettings();

    @Valid
    @NotNull
    private SearchSettings search = new SearchSettings();

    @JsonProperty
    public SearchSettings getSearch() {
        return search;
    }

    @JsonProperty
    public void setSearch(SearchSettings search) {
        this.search = search;
    }

    @Valid
    @NotNull
    private io.profilestore.console.ConsoleSettings console = new io.profilestore.console.ConsoleSettings();

    @JsonProperty
    public io.profilestore.console.ConsoleSettings getConsole() {
        return console;
    }

    @JsonProperty
    public void setConsole(io.profilestore.console.ConsoleSettings console) {
        this.console = console;
    }

    @JsonProperty
    public ProfileSettings getProfiles() {
        return profiles;
    }

    @JsonProperty
    public void setProfiles(ProfileSettings profiles) {
        this.profiles = profiles;
    }

    @JsonProperty
    public CassandraFactory getCassandra() {
        return cassandra;
    }

    @JsonProperty
    public void setCassandra(CassandraFactory cassandra) {
        this.cassandra = cassandra;
    }

    @JsonProperty
    public ElasticsearchFactory getElasticsearch() {
        return elasticsearch;
    }

    @JsonProperty
    public void setElasticsearch(ElasticsearchFactory elasticsearch) {
        this.elasticsearch = elasticsearch;
    }

    @JsonProperty
    public PostgresFactory getPostgres() {
        return postgres;
    }

    @JsonProperty
    public void setPostgres(PostgresFactory postgres) {
        this.postgres = postgres;
    }

    @JsonProperty
    public RabbitMqFactory getRabbitmq() {
        return rabbitmq;
    }

    @JsonProperty
    public void setRabbitmq(RabbitMqFactory rabbitmq) {
        this.rabbitmq = rabbitmq;
    }
}
