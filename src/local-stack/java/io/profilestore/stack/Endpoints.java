package io.profilestore.stack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where the four services of a stack answer, in the terms of the service's configuration. */
public record Endpoints(List<String> cassandraContactPoints, String cassandraDatacenter, String elasticsearchUrl,
        String postgresUrl, String postgresUser, String postgresPassword, String postgresOwner,
        String postgresOwnerPassword, String rabbitmqUri) {

    /** Configuration paths to values, as {@code dw.<path>} system properties or Dropwizard's ConfigOverride. */
    public Map<String, String> configOverrides() {
        var overrides = new LinkedHashMap<String, String>();
        overrides.put("cassandra.contactPoints", String.join(",", cassandraContactPoints));
        overrides.put("cassandra.localDatacenter", cassandraDatacenter);
        overrides.put("elasticsearch.hosts", elasticsearchUrl);
        overrides.put("postgres.url", postgresUrl);
        overrides.put("postgres.user", postgresUser);
        overrides.put("postgres.password", postgresPassword);
        overrides.put("postgres.migrationUser", postgresOwner);
        overrides.put("postgres.migrationPassword", postgresOwnerPassword);
        overrides.put("rabbitmq.uri", rabbitmqUri);
        return overrides;
    }

    /** The same, as the environment variables the service's YAML reads (for a shell or a second process). */
    public Map<String, String> environment() {
        var env = new LinkedHashMap<String, String>();
        env.put("CASSANDRA_CONTACT_POINTS", String.join(",", cassandraContactPoints));
        env.put("CASSANDRA_LOCAL_DC", cassandraDatacenter);
        env.put("ELASTICSEARCH_URLS", elasticsearchUrl);
        env.put("POSTGRES_URL", postgresUrl);
        env.put("POSTGRES_USER", postgresUser);
        env.put("POSTGRES_PASSWORD", postgresPassword);
        env.put("POSTGRES_MIGRATION_USER", postgresOwner);
        env.put("POSTGRES_MIGRATION_PASSWORD", postgresOwnerPassword);
        env.put("RABBITMQ_URI", rabbitmqUri);
        return env;
    }
}
