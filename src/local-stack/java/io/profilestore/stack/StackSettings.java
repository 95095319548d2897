package io.profilestore.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Everything the stack can be told, read from system properties or the environment (a system property of the
 * same name wins). The "Settings" table of docs/operations/local-stack.md lists them.
 */
public record StackSettings(
        String modeSetting,
        Path dir,
        Path distDir,
        Path projectDir,
        int cassandraNodes,
        int cassandraPort,
        int cassandraStoragePort,
        String cassandraHeap,
        boolean cassandraFullJit,
        boolean cassandraPasswordAuth,
        String cassandraTlsKeystore,
        String cassandraTlsKeystorePassword,
        int elasticsearchPort,
        int elasticsearchTransportPort,
        String elasticsearchHeap,
        int postgresPort,
        boolean postgresDurable,
        int rabbitmqPort,
        int rabbitmqDistPort,
        int rabbitmqEpmdPort,
        String serviceUser,
        Duration startTimeout,
        Function<String, String> lookup) {

    public static StackSettings fromEnvironment() {
        return from(name -> {
            String property = System.getProperty(name);
            return property != null ? property : System.getenv(name);
        });
    }

    public static StackSettings from(Map<String, String> values) {
        return from(values::get);
    }

    public static StackSettings from(Function<String, String> lookup) {
        var read = new Reader(lookup);
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        int nodes = read.integer("PROFILE_STORE_CASSANDRA_NODES", 1);
        if (nodes != 1 && nodes != 3) {
            throw new IllegalArgumentException("PROFILE_STORE_CASSANDRA_NODES must be 1 or 3, not " + nodes);
        }
        Path dir = Path.of(read.text("PROFILE_STORE_STACK_DIR", "/var/tmp/profile-store-" + user)).toAbsolutePath();
        return new StackSettings(
                read.text("PROFILE_STORE_STACK", "auto"),
                dir,
                Path.of(read.text("PROFILE_STORE_STACK_DIST_DIR", dir.resolve("dist").toString())).toAbsolutePath(),
                Path.of(read.text("profileStore.projectDir", System.getProperty("user.dir"))).toAbsolutePath(),
                nodes,
                read.port("PROFILE_STORE_CASSANDRA_PORT", 19042),
                read.port("PROFILE_STORE_CASSANDRA_STORAGE_PORT", 17000),
                read.heap("PROFILE_STORE_CASSANDRA_HEAP", "512m"),
                read.choice("PROFILE_STORE_CASSANDRA_JIT", "quick", "full").equals("full"),
                read.choice("PROFILE_STORE_CASSANDRA_AUTH", "none", "password").equals("password"),
                read.text("PROFILE_STORE_CASSANDRA_TLS_KEYSTORE", ""),
                read.text("PROFILE_STORE_CASSANDRA_TLS_KEYSTORE_PASSWORD", ""),
                read.port("PROFILE_STORE_ELASTICSEARCH_PORT", 19200),
                read.port("PROFILE_STORE_ELASTICSEARCH_TRANSPORT_PORT", 19300),
                read.heap("PROFILE_STORE_ELASTICSEARCH_HEAP", "512m"),
                read.port("PROFILE_STORE_POSTGRES_PORT", 15432),
                read.choice("PROFILE_STORE_POSTGRES_DURABLE", "false", "true").equals("true"),
                read.port("PROFILE_STORE_RABBITMQ_PORT", 15673),
                read.port("PROFILE_STORE_RABBITMQ_DIST_PORT", 25673),
                read.port("PROFILE_STORE_RABBITMQ_EPMD_PORT", 24369),
                read.text("PROFILE_STORE_STACK_USER", "profilestore"),
                Duration.ofSeconds(read.integer("PROFILE_STORE_STACK_START_TIMEOUT", 300)),
                lookup);
    }

    /** The mode, asking Docker only when the setting leaves the choice open. */
    public StackMode mode() {
        return StackMode.resolve(modeSetting, DockerProbe::available);
    }

    /** Cassandra node i (from 1) listens on 127.0.0.i: loopback covers 127/8 on Linux without aliases. */
    public List<String> cassandraHosts() {
        return IntStream.rangeClosed(1, cassandraNodes).mapToObj(i -> "127.0.0." + i).toList();
    }

    /** Addresses of services someone else runs: the service's own variables, with the service's defaults. */
    public Endpoints externalEndpoints() {
        var read = new Reader(lookup);
        return new Endpoints(
                List.of(read.text("CASSANDRA_CONTACT_POINTS", "127.0.0.1:19042").split("\\s*,\\s*")),
                read.text("CASSANDRA_LOCAL_DC", "datacenter1"),
                read.text("ELASTICSEARCH_URLS", "http://127.0.0.1:19200"),
                read.text("POSTGRES_URL", "jdbc:postgresql://127.0.0.1:15432/profilestore"),
                read.text("POSTGRES_USER", "profilestore"),
                read.text("POSTGRES_PASSWORD", ""),
                read.text("POSTGRES_MIGRATION_USER", ""),
                read.text("POSTGRES_MIGRATION_PASSWORD", ""),
                read.text("RABBITMQ_URI", "amqp://guest:guest@127.0.0.1:15673/%2F"));
    }

    private record Reader(Function<String, String> lookup) {
        String text(String name, String fallback) {
            String value = lookup.apply(name);
            return value == null || value.isBlank() ? fallback : value.trim();
        }

        int integer(String name, int fallback) {
            String value = text(name, String.valueOf(fallback));
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a number, not '" + value + "'");
            }
        }

        String choice(String name, String fallback, String other) {
            String value = text(name, fallback);
            if (!value.equals(fallback) && !value.equals(other)) {
                throw new IllegalArgumentException(name + " must be " + fallback + " or " + other + ", not '" + value + "'");
            }
            return value;
        }

        int port(String name, int fallback) {
            int port = integer(name, fallback);
            if (port < 1024 || port > 65535) {
                throw new IllegalArgumentException(name + " must be a port between 1024 and 65535, not " + port);
            }
            return port;
        }

        String heap(String name, String fallback) {
            String value = text(name, fallback);
            if (!value.matches("\\d+[mMgG]")) {
                throw new IllegalArgumentException(name + " must look like 512m or 2g, not '" + value + "'");
            }
            return value;
        }
    }
}
