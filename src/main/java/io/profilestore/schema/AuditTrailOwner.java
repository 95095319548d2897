package io.profilestore.schema;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Who owns the audit trail's tables, asked of PostgreSQL rather than read from the configuration: a database made
 * before the trail had an owner of its own keeps the service's role as their owner whatever migrate is now told,
 * and an owner may update, delete and truncate, so the trail would not be append-only for the service.
 */
public final class AuditTrailOwner {

    /** The audit tables (audit_…) of the schema migrate works in that the role owns, or owns through a membership. */
    private static final String OWNED = """
            SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = current_schema() AND c.relname LIKE 'audit\\_%' AND c.relkind IN ('r', 'p')
               AND pg_has_role(?, c.relowner, 'MEMBER')
             ORDER BY c.relname
            """;

    /**
     * The trail's functions the role owns: {@code purge_expired_audit} runs with its owner's rights, so owned by the
     * service's role it would delete as that role may, which is nothing, and migrate could not set it up.
     */
    private static final String OWNED_FUNCTIONS = """
            SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' FROM pg_proc p
              JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE n.nspname = current_schema() AND p.proname LIKE '%\\_audit' AND pg_has_role(?, p.proowner, 'MEMBER')
             ORDER BY 1
            """;

    /**
     * Whether the role owns the schema migrate works in (or through a membership: since PostgreSQL 15 {@code public}
     * belongs to pg_database_owner, the database's owner). A schema's owner may drop every table in it, whoever owns
     * the table, so a trail there is not append-only for that role either.
     */
    private static final String OWNS_SCHEMA = """
            SELECT 1 FROM pg_namespace n WHERE n.nspname = current_schema() AND pg_has_role(?, n.nspowner, 'MEMBER')
            """;

    /** The service's role owns audit tables: migrate stops, saying how to hand them over. */
    public static final class OwnedByTheService extends IllegalStateException {
        OwnedByTheService(String message) {
            super(message);
        }
    }

    private AuditTrailOwner() {
    }

    /**
     * @param asOwner migrate's connections
     * @param serviceRole the role the service runs as
     * @param owner the owner migrate is configured with, or null without one
     * @throws OwnedByTheService when the service's role owns (or is a member of the owner of) an audit table
     */
    public static void check(DataSource asOwner, String serviceRole, String owner) throws SQLException {
        var tables = new ArrayList<String>();
        String schema;
        boolean ownsSchema;
        try (var connection = asOwner.getConnection()) {
            try (var statement = connection.createStatement(); var rows = statement.executeQuery("SELECT current_schema()")) {
                rows.next();
                schema = rows.getString(1);
            }
            try (var statement = connection.prepareStatement(OWNS_SCHEMA)) {
                statement.setString(1, serviceRole);
                try (var rows = statement.executeQuery()) {
                    ownsSchema = rows.next();
                }
            }
            for (String query : List.of(OWNED, OWNED_FUNCTIONS)) {
                try (var statement = connection.prepareStatement(query)) {
                    statement.setString(1, serviceRole);
                    try (var rows = statement.executeQuery()) {
                        while (rows.next()) {
                            tables.add(rows.getString(1));
                        }
                    }
                }
            }
        }
        if (!tables.isEmpty()) {
            throw new OwnedByTheService(refusal(schema, tables, serviceRole, owner));
        }
        if (ownsSchema) {
            throw new OwnedByTheService(schemaRefusal(schema, serviceRole, owner));
        }
    }

    static String schemaRefusal(String schema, String serviceRole, String owner) {
        String to = owner == null || owner.isBlank() ? "<owner>" : owner;
        return "postgres: the service's role " + serviceRole + " owns the schema " + schema + " (or the database, "
                + "which owns public), and a schema's owner may drop every table in it, so it could drop its own audit "
                + "trail; migrate stops here. To fix, as a superuser in this database: ALTER SCHEMA " + schema
                + " OWNER TO " + to + "; (and ALTER DATABASE … OWNER TO " + to + " if the service's role owns the "
                + "database) with " + to + " a role of its own that the service's role is not a member of; then run "
                + "migrate again as that owner (POSTGRES_MIGRATION_USER and POSTGRES_MIGRATION_PASSWORD, "
                + "postgres.migrationUser) (docs/operations/runbooks.md, \"Runbook: migrate refuses\")";
    }

    static String refusal(String schema, List<String> tables, String serviceRole, String owner) {
        String to = owner == null || owner.isBlank() ? "<owner>" : owner;
        var alter = new StringBuilder();
        for (String table : tables) {
            // a function is named with its arguments: purge_expired_audit(batch integer)
            alter.append(table.contains("(") ? "ALTER FUNCTION " : "ALTER TABLE ").append(schema).append('.')
                    .append(table.contains("(") ? table.replaceAll("\\(\\w+ ", "(") : table).append(" OWNER TO ")
                    .append(to).append("; ");
        }
        return "postgres: the service's role " + serviceRole + " owns " + String.join(", ", tables) + " (schema "
                + schema + "), so it could update or delete its own audit trail; migrate stops here. To fix, as a "
                + "superuser in this database: REASSIGN OWNED BY " + serviceRole + " TO " + to + "; (every table it "
                + "owns; at the least " + alter.toString().strip() + ") with " + to + " a role of its own that the "
                + "service's role is not a member of; then run migrate again as that owner (POSTGRES_MIGRATION_USER"
                + " and POSTGRES_MIGRATION_PASSWORD, postgres.migrationUser), which grants the service's role back "
                + "what it needs (docs/operations/runbooks.md, \"Runbook: migrate refuses\")";
    }
}
