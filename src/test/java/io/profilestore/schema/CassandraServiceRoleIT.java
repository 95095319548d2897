package io.profilestore.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import io.profilestore.backends.CassandraFactory;
import io.profilestore.backends.TlsSettings;
import io.profilestore.stack.LocalStack;
import io.profilestore.stack.StackSettings;
import io.profilestore.testing.FreePorts;
import io.profilestore.testing.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The service's own Cassandra role, as production runs it: a node of its own with logins, grants and client TLS on
 * (k8ssandra's setup), where {@code migrate} logs in as the superuser and the service as the role migrate made.
 * What the settings allow is checked without a node ({@code CassandraFactoryTest}).
 */
@EnabledIf("io.profilestore.stack.LocalStackLifecycleIT#localMode")
class CassandraServiceRoleIT {

    static final String KEYSPACE = "role_test";
    static final String ROLE = "profile_store_service";

    static Path dir;
    static LocalStack node;
    static TestCertificates certificates;
    static int cqlPort;

    @BeforeAll
    static void startNode() throws IOException {
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-cassandra-roles-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        certificates = TestCertificates.create(dir.resolve("certificates"));
        var shared = StackSettings.fromEnvironment();
        cqlPort = FreePorts.next();
        var settings = StackSettings.from(Map.of(
                "PROFILE_STORE_STACK_DIR", dir.toString(),
                "PROFILE_STORE_STACK_DIST_DIR", shared.distDir().toString(),
                "PROFILE_STORE_CASSANDRA_PORT", Integer.toString(cqlPort),
                "PROFILE_STORE_CASSANDRA_STORAGE_PORT", Integer.toString(FreePorts.next()),
                "PROFILE_STORE_CASSANDRA_HEAP", "256m",
                "PROFILE_STORE_CASSANDRA_AUTH", "password",
                "PROFILE_STORE_CASSANDRA_TLS_KEYSTORE", certificates.serverKeyStore().toString(),
                "PROFILE_STORE_CASSANDRA_TLS_KEYSTORE_PASSWORD", TestCertificates.STORE_PASSWORD,
                "profileStore.projectDir", shared.projectDir().toString()));
        node = LocalStack.start(settings, EnumSet.of(LocalStack.Service.CASSANDRA));
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) {
            assertThat(node.leave()).isTrue();
        }
        var rm = new ProcessBuilder("rm", "-rf", dir.toString()).start();
        rm.waitFor(1, TimeUnit.MINUTES);
    }

    /** The service's settings: its own role, the superuser for migrate, TLS trusting {@code ca}. */
    static CassandraFactory settings(String password, Path ca) {
        return settings(password, ca, true);
    }

    static CassandraFactory settings(String password, Path ca, boolean verifyHostname) {
        var settings = new CassandraFactory();
        settings.contactPoints = List.of("127.0.0.1:" + cqlPort);
        settings.keyspace = KEYSPACE;
        settings.username = ROLE;
        settings.password = password;
        settings.migrationUsername = "cassandra";
        settings.migrationPassword = "cassandra";
        var tls = new TlsSettings();
        tls.enabled = true;
        tls.caFile = ca.toString();
        tls.verifyHostname = verifyHostname;
        settings.tls = tls;
        return settings;
    }

    /** Writes a profile row at {@code version} as the session's role, reads its version back, and deletes it. */
    static long writtenAndReadBack(CqlSession session, long version) {
        var pid = UUID.randomUUID();
        session.execute(SimpleStatement.newInstance(
                "INSERT INTO " + KEYSPACE + ".profile (pid, version, data) VALUES (?, ?, '{}')", pid, version));
        var row = session.execute(SimpleStatement.newInstance(
                "SELECT version FROM " + KEYSPACE + ".profile WHERE pid = ?", pid)).one();
        session.execute(SimpleStatement.newInstance("DELETE FROM " + KEYSPACE + ".profile WHERE pid = ?", pid));
        return row == null ? -1 : row.getLong("version");
    }

    @Test
    void migrateGivesTheServiceRoleReadsAndWritesOnItsKeyspaceAndNothingElse() {
        // a quote in the password: it reaches CQL as a literal
        var service = settings("it's a secret", certificates.caFile());
        CassandraSchema.migrate(service);
        try (CqlSession session = service.build(new MetricRegistry())) {
            assertThat(writtenAndReadBack(session, 1)).isEqualTo(1);

            for (String refused : List.of(
                    "CREATE TABLE " + KEYSPACE + ".extra (k int PRIMARY KEY)",
                    "DROP TABLE " + KEYSPACE + ".profile",
                    "CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
                    "CREATE ROLE intruder WITH PASSWORD = 'x' AND LOGIN = true",
                    "GRANT ALL ON ALL KEYSPACES TO " + ROLE)) {
                assertThatThrownBy(() -> session.execute(refused)).as(refused).isInstanceOf(UnauthorizedException.class);
            }
        }
    }

    @Test
    void migrateAgainFollowsARotatedPassword() {
        CassandraSchema.migrate(settings("first password", certificates.caFile()));
        CassandraSchema.migrate(settings("rotated password", certificates.caFile()));
        try (CqlSession session = settings("rotated password", certificates.caFile()).build(new MetricRegistry())) {
            assertThat(writtenAndReadBack(session, 2)).as("the role's reads and writes, logged in with the new password")
                    .isEqualTo(2);
        }
        assertThatThrownBy(() -> settings("first password", certificates.caFile()).build(new MetricRegistry()).close())
                .isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("Authentication error");
    }

    @Test
    void aNodeWhoseCertificateAnotherAuthoritySignedIsRefusedWithOrWithoutTheNameCheck() {
        CassandraSchema.migrate(settings("a password", certificates.caFile()));
        // production checks Cassandra's authority alone (nodes are reached by pod IP): that check must hold by itself
        for (boolean verifyHostname : new boolean[] {true, false}) {
            assertThatThrownBy(() -> settings("a password", certificates.otherCaFile(), verifyHostname)
                    .build(new MetricRegistry()).close())
                    .as("verifyHostname %s", verifyHostname)
                    .isInstanceOf(AllNodesFailedException.class)
                    .hasStackTraceContaining("PKIX path");
        }
        settings("a password", certificates.caFile(), false).build(new MetricRegistry()).close();
    }
}
