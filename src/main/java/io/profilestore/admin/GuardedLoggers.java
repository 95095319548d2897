package io.profilestore.admin;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Loggers that print what must not reach a log once raised to DEBUG or TRACE: Jetty and Jersey print requests'
 * headers (the bearer token) and bodies, the HTTP clients and Elasticsearch's {@code tracer} print whole requests
 * and answers, the drivers print statements and their values (names, phone numbers). They may be quietened, never
 * raised; nor may their ancestors or the root, from which they would inherit the level.
 */
public final class GuardedLoggers {

    /** The loggers, and those under them. Names compared case aside: stricter than Logback, never laxer. */
    static final List<String> GUARDED = List.of("org.eclipse.jetty", "org.glassfish.jersey", "org.apache.http",
            "org.apache.hc", "com.datastax", "io.netty", "org.postgresql", "com.zaxxer.hikari", "com.rabbitmq",
            "co.elastic", "org.elasticsearch", "tracer");

    /** The levels that print no more than INFO: what a guarded logger may be set to (or reset, with none). */
    static final Set<String> QUIET = Set.of("INFO", "WARN", "ERROR", "OFF");

    private GuardedLoggers() {
    }

    /** Whether log-level may set this logger to this level (null: back to the configured level). */
    public static boolean maySet(String logger, String level) {
        return !isGuarded(logger) || level == null || QUIET.contains(level.strip().toUpperCase(Locale.ROOT));
    }

    /**
     * Holds every guarded logger, and every one configured under them, at INFO at least: a root level of DEBUG (the
     * chart's {@code config.logLevel}, {@code LOG_LEVEL}) or a line of the file would otherwise raise what log-level
     * refuses to. Returns the loggers it held.
     */
    public static List<String> holdAtInfo(LoggerContext context) {
        var held = new ArrayList<String>();
        for (String name : GUARDED) {
            var logger = context.getLogger(name);
            if (!logger.getEffectiveLevel().isGreaterOrEqual(Level.INFO)) {
                logger.setLevel(Level.INFO);
                held.add(name);
            }
        }
        for (var logger : context.getLoggerList()) {
            if (logger.getLevel() != null && !logger.getLevel().isGreaterOrEqual(Level.INFO) && isUnderGuarded(logger.getName())) {
                logger.setLevel(Level.INFO);
                held.add(logger.getName());
            }
        }
        return held;
    }

    private static boolean isUnderGuarded(String logger) {
        String name = logger.toLowerCase(Locale.ROOT);
        return GUARDED.stream().anyMatch(guarded -> name.equals(guarded) || name.startsWith(guarded + "."));
    }

    /** The root, a guarded logger, one under it, or an ancestor of one (org, org.eclipse). */
    static boolean isGuarded(String logger) {
        String name = logger == null ? "" : logger.strip().toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.equals("root")) {
            return true;
        }
        for (String guarded : GUARDED) {
            if (name.equals(guarded) || name.startsWith(guarded + ".") || guarded.startsWith(name + ".")) {
                return true;
            }
        }
        return false;
    }
}
