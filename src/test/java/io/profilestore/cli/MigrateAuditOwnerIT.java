package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.schema.PostgresSchema;
import io.profilestore.testing.ChildClasspath;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code migrate} asks PostgreSQL who owns the audit trail's tables: where the service's own role does (a database
 * made before the trail had an owner of its own, or migrated without one), the service could edit its own trail,
 * and migrate fails, saying how to fix it. Each test works in a schema of its own, in a child process, as the
 * chart's Job runs it.
 */
class MigrateAuditOwnerIT {

    String schema;

    @BeforeEach
    void ownSchema() throws Exception {
        TestStack.stack();
        schema = "migrate_owner_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + schema);
            // as a database made before the owner role: the service's role could create its tables there
            statement.execute("GRANT USAGE, CREATE ON SCHEMA " + schema + " TO " + TestStack.endpoints().postgresUser());
        }
    }

    @AfterEach
    void dropSchema() throws Exception {
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            // the schema's owner drops what is in it, whoever owns that
            statement.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    @Test
    void aTrailTheServicesRoleOwnsFromBeforeTheOwnerIsRefusedWithTheFix() throws Exception {
        // the tables made by the service's role, as migrate did before it had an owner of its own
        try (var asService = serviceRolePool()) {
            PostgresSchema.migrate(asService, TestStack.endpoints().postgresUser(), false,
                    java.time.Duration.ofDays(1826));
        }
        assertThat(owner("audit_record")).isEqualTo(TestStack.endpoints().postgresUser());

        var run = migrate(Map.of());

        assertThat(run.exit()).as(run.output()).isNotZero();
        String owner = TestStack.endpoints().postgresOwner();
        assertThat(run.output()).containsPattern("owns [a-z_, ]*audit_record")
                .contains("ALTER TABLE " + schema + ".audit_record OWNER TO " + owner)
                // and the retention's function, which runs with its owner's rights
                .contains("ALTER FUNCTION " + schema + ".purge_expired_audit(integer) OWNER TO " + owner)
                .contains("POSTGRES_MIGRATION_USER");
    }

    /**
     * The owner of a schema may drop every table in it, whoever owns the table: a trail whose tables the owner holds,
     * in a schema the service's role owns, is the service's to drop.
     */
    @Test
    void aTrailInASchemaTheServicesRoleOwnsIsRefused() throws Exception {
        String service = TestStack.endpoints().postgresUser();
        String database;
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            database = connection.getCatalog();
            statement.execute("GRANT CREATE ON DATABASE \"" + database + "\" TO " + service);
        }
        String theirs = schema + "_s";
        try (var asService = serviceRolePool(); var connection = asService.getConnection();
                var statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + theirs);
            statement.execute("GRANT USAGE, CREATE ON SCHEMA " + theirs + " TO " + TestStack.endpoints().postgresOwner());
        }
        try {
            var run = migrate(Map.of("POSTGRES_URL", schemaUrl(theirs)));

            assertThat(run.exit()).as(run.output()).isNotZero();
            assertThat(run.output()).contains("owns the schema " + theirs).contains("ALTER SCHEMA " + theirs + " OWNER TO")
                    .contains("POSTGRES_MIGRATION_USER");
        } finally {
            try (var asService = serviceRolePool(); var connection = asService.getConnection();
                    var statement = connection.createStatement()) {
                statement.execute("DROP SCHEMA " + theirs + " CASCADE");
            }
            try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
                statement.execute("REVOKE CREATE ON DATABASE \"" + database + "\" FROM " + service);
            }
        }
    }

    @Test
    void migrateWithoutAnOwnerOfItsOwnFails() throws Exception {
        var run = migrate(Map.of("POSTGRES_MIGRATION_USER", "", "POSTGRES_MIGRATION_PASSWORD", ""));

        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).containsPattern("owns [a-z_, ]*audit_record").contains("POSTGRES_MIGRATION_USER");
        assertThat(owner("audit_record")).isEqualTo(TestStack.endpoints().postgresUser());
    }

    @Test
    void migrateAsTheOwnerPasses() throws Exception {
        var run = migrate(Map.of());

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(owner("audit_record")).isEqualTo(TestStack.endpoints().postgresOwner());
        assertThat(owner("audit_outcome")).isEqualTo(TestStack.endpoints().postgresOwner());
    }

    record Run(int exit, String output) {
    }

    private Run migrate(Map<String, String> environment) throws Exception {
        Path log = Files.createTempFile("migrate-owner-", ".log");
        var builder = new ProcessBuilder(ChildClasspath.javaCommand(ProfileStoreApplication.class.getName()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.command().addAll(List.of("migrate", TestStack.configPath()));
        var env = new HashMap<>(TestStack.endpoints().environment());
        env.put("POSTGRES_URL", schemaUrl());
        env.put("PROFILE_STORE_NUMBER_KEYS", TestAuth.NUMBER_KEYS);
        env.putAll(environment);
        builder.environment().putAll(env);
        var process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("migrate did not end within 3 minutes: " + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    private String schemaUrl() {
        return schemaUrl(schema);
    }

    private static String schemaUrl(String schema) {
        String url = TestStack.endpoints().postgresUrl();
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    private HikariDataSource serviceRolePool() {
        var pool = new HikariDataSource();
        pool.setJdbcUrl(schemaUrl());
        pool.setUsername(TestStack.endpoints().postgresUser());
        pool.setPassword(TestStack.endpoints().postgresPassword());
        pool.setMaximumPoolSize(3);
        return pool;
    }

    private String owner(String table) throws Exception {
        try (var connection = TestStack.asOwner().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT tableowner FROM pg_tables WHERE schemaname = ? AND tablename = ?")) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : null;
            }
        }
    }
}
