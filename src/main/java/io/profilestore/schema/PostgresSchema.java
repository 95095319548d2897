package io.profilestore.schema;

import java.util.Map;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Applies {@code src/main/resources/db/postgresql/V<n>__<name>.sql} once each through Flyway, then
 * {@code afterMigrate.sql}, which grants the service's role what it needs when migrate runs as an owner of its own.
 */
public final class PostgresSchema {

    public static final String LOCATION = "classpath:db/postgresql";

    /** @param ownerOfItsOwn whether the tables are owned by a role other than the service's */
    public record Result(String versionBefore, String versionAfter, int applied, boolean ownerOfItsOwn) {
    }

    private PostgresSchema() {
    }

    /**
     * @param asOwner connections of the role that owns (or is to own) the tables
     * @param serviceRole the role the service runs as
     * @param auditRetention how long the audit trail is kept (audit.retention), written where the service's role cannot
     *     change it
     */
    public static Result migrate(DataSource asOwner, String serviceRole, boolean ownerOfItsOwn,
            java.time.Duration auditRetention) {
        var result = Flyway.configure()
                .dataSource(asOwner)
                .locations(LOCATION)
                // inside a string literal of afterMigrate.sql, which quotes it as an identifier itself (%I)
                .placeholders(Map.of("serviceRole", serviceRole.replace("'", "''"),
                        "auditRetentionDays", Long.toString(auditRetention.toDays())))
                .failOnMissingLocations(true)
                // Flyway's lock as a session lock, not a transaction held open: CREATE INDEX CONCURRENTLY waits for
                // every open transaction to end, Flyway's own included, and would wait for ever (V12)
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false"))
                .load()
                .migrate();
        return new Result(
                result.initialSchemaVersion == null ? "none" : result.initialSchemaVersion,
                result.targetSchemaVersion == null ? String.valueOf(result.initialSchemaVersion) : result.targetSchemaVersion,
                result.migrationsExecuted, ownerOfItsOwn);
    }
}
