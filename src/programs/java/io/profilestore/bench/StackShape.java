package io.profilestore.bench;

import io.profilestore.stack.StackSettings;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * What the benchmark runs on, read from the running services, not from the settings: a stack folder whose services
 * are running keeps what they were started with, whatever the settings say now. A run that asked for another shape
 * stops before it measures anything.
 */
record StackShape(Map<String, String> postgres) {

    /** The settings that make PostgreSQL's commits wait for the disk; each must be on for a durable run. */
    static final List<String> DURABILITY = List.of("fsync", "synchronous_commit", "full_page_writes");

    static StackShape read() {
        return new StackShape(postgresSettings(TestStack.asOwner()));
    }

    private static Map<String, String> postgresSettings(DataSource postgres) {
        var settings = new LinkedHashMap<String, String>();
        try (var connection = postgres.getConnection(); var statement = connection.createStatement()) {
            for (String name : DURABILITY) {
                try (var rows = statement.executeQuery("SHOW " + name)) {
                    rows.next();
                    settings.put(name, rows.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read PostgreSQL's settings", e);
        }
        return settings;
    }

    boolean postgresDurable() {
        return DURABILITY.stream().allMatch(name -> "on".equals(postgres.get(name)));
    }

    /** Refuses a stack of another shape than the options ask for, saying why it may be so and what to do. */
    void check(Bench.Options options) {
        if (postgresDurable() == options.postgresFast()) {
            throw new IllegalStateException(String.format("the run asks for PostgreSQL %s, but the stack's runs with %s:"
                    + " a running server keeps the settings it was started with. Stop the stack first"
                    + " (PROFILE_STORE_STACK_DIR=%s ./run-local stop, with the same ports)",
                    options.postgresFast() ? "without fsync (--postgres-fast)" : "durable", settings(),
                    StackSettings.fromEnvironment().dir()));
        }
    }

    private String settings() {
        return postgres.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }

    /** The report's paragraph on the stack: what each backend ran as. */
    String markdown() {
        return "Stack: PostgreSQL " + (postgresDurable() ? "durable, every commit waits for the disk"
                : "**not durable**, no commit waits for the disk (`--postgres-fast`)") + " (" + settings() + ").\n";
    }
}
