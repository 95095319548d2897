package io.profilestore.stack;

import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Where the backing services come from. {@code auto} picks {@link #DOCKER} when a Docker engine answers and
 * {@link #LOCAL} otherwise; the other values force a mode.
 */
public enum StackMode {
    /** Each service a process of this machine, from Maven Central (Cassandra, Elasticsearch) or the OS packages. */
    LOCAL,
    /** Each service a container started by Testcontainers. */
    DOCKER,
    /** Services that are already running, at the addresses in the environment (the service's own variables). */
    EXTERNAL;

    public static StackMode resolve(String setting, BooleanSupplier dockerAvailable) {
        String value = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "", "auto" -> dockerAvailable.getAsBoolean() ? DOCKER : LOCAL;
            case "local" -> LOCAL;
            case "docker", "testcontainers" -> DOCKER;
            case "external" -> EXTERNAL;
            default -> throw new IllegalArgumentException(
                    "PROFILE_STORE_STACK must be auto, local, docker or external, not '" + setting + "'");
        };
    }
}
