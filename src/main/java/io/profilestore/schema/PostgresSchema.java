package io.profilestore.schema;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** Applies {@code src/main/resources/db/postgresql/V<n>__<name>.sql} once each through Flyway. */
public final class PostgresSchema {

    public static final String LOCATION = "classpath:db/postgresql";

    public record Result(String versionBefore, String versionAfter, int applied) {
    }

    private PostgresSchema() {
    }

    public static Result migrate(DataSource dataSource) {
        var result = Flyway.configure()
                .dataSource(dataSource)
                .locations(LOCATION)
                .failOnMissingLocations(true)
                .load()
                .migrate();
        return new Result(
                result.initialSchemaVersion == null ? "none" : result.initialSchemaVersion,
                result.targetSchemaVersion == null ? String.valueOf(result.initialSchemaVersion) : result.targetSchemaVersion,
                result.migrationsExecuted);
    }
}
