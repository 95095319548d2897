package io.profilestore;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.profilestore.backends.CassandraFactory;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.backends.PostgresFactory;
import io.profilestore.backends.RabbitMqFactory;
import io.profilestore.core.ProfileSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** The service's YAML: one section per backing service, plus Dropwizard's own (server, logging, metrics). */
public class ProfileStoreConfiguration extends Configuration {

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
