package io.profilestore.backends;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.jersey.validation.Validators;
import io.profilestore.testing.TestCertificates;
import io.profilestore.testing.TestStack;
import io.profilestore.testing.TlsProxy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's TLS settings against a real handshake: each of Elasticsearch, PostgreSQL and RabbitMQ reached
 * through a TLS proxy whose certificate the tests' own authority signed for {@code localhost}. A client connects when
 * it trusts that authority and the name matches, and is refused with another authority, or by an address the
 * certificate does not hold with the host name check on (127.0.0.2: 127.0.0.1 would be looked up as localhost). (Cassandra's TLS meets a real Cassandra with TLS on, in CassandraServiceRoleIT.)
 */
class BackendTlsIT {

    @TempDir
    static Path dir;

    static TestCertificates certificates;

    @BeforeAll
    static void makeCertificates() {
        certificates = TestCertificates.create(dir.resolve("certificates"));
    }

    static TlsSettings trusting(Path caFile, boolean verifyHostname) {
        var tls = new TlsSettings();
        tls.enabled = true;
        tls.caFile = caFile.toString();
        tls.verifyHostname = verifyHostname;
        return tls;
    }

    static InetSocketAddress address(URI uri) {
        return new InetSocketAddress(uri.getHost(), uri.getPort());
    }

    @Nested
    class Elasticsearch {

        static TlsProxy proxy;

        @BeforeAll
        static void startProxy() throws IOException {
            proxy = TlsProxy.start(certificates.serverContext(),
                    address(URI.create(TestStack.endpoints().elasticsearchUrl())), TlsProxy.Start.DIRECT);
        }

        @AfterAll
        static void stopProxy() throws IOException {
            proxy.close();
        }

        ElasticsearchFactory factory(String host, TlsSettings tls) {
            var factory = new ElasticsearchFactory();
            factory.hosts = List.of(URI.create("https://" + host + ":" + proxy.port()));
            factory.tls = tls;
            return factory;
        }

        @Test
        void connectsWhenItTrustsTheAuthorityAndTheNameMatches() throws IOException {
            int before = proxy.handshakes();
            try (var client = factory("localhost", trusting(certificates.caFile(), true)).build()) {
                assertThat(client.cluster().health().clusterName()).isNotBlank();
            }
            assertThat(proxy.handshakes()).isGreaterThan(before);
        }

        @Test
        void refusesAServerSignedByAnotherAuthority() throws IOException {
            try (var client = factory("localhost", trusting(certificates.otherCaFile(), true)).build()) {
                assertThatThrownBy(() -> client.cluster().health()).hasStackTraceContaining("PKIX path");
            }
        }

        @Test
        void refusesANameTheCertificateDoesNotHoldUnlessTheCheckIsOff() throws IOException {
            try (var client = factory("127.0.0.2", trusting(certificates.caFile(), true)).build()) {
                assertThatThrownBy(() -> client.cluster().health())
                        .hasStackTraceContaining("Certificate for <127.0.0.2> doesn't match any of the subject alternative names");
            }
            try (var client = factory("127.0.0.2", trusting(certificates.caFile(), false)).build()) {
                assertThat(client.cluster().health().clusterName()).isNotBlank();
            }
        }

        @Test
        void httpsHostsWithoutTlsAreAConfigurationError() {
            var factory = factory("localhost", new TlsSettings());
            assertThat(Validators.newValidator().validate(factory))
                    .extracting(violation -> violation.getMessage())
                    .containsExactly("tls.enabled must be true exactly when every host is https://");
        }
    }

    @Nested
    class Postgres {

        static TlsProxy proxy;
        static URI postgres;

        @BeforeAll
        static void startProxy() throws IOException {
            postgres = URI.create(TestStack.endpoints().postgresUrl().substring("jdbc:".length()));
            proxy = TlsProxy.start(certificates.serverContext(), address(postgres),
                    TlsProxy.Start.POSTGRES_SSL_REQUEST);
        }

        @AfterAll
        static void stopProxy() throws IOException {
            proxy.close();
        }

        PostgresFactory factory(String host, TlsSettings tls) {
            var endpoints = TestStack.endpoints();
            var factory = new PostgresFactory();
            factory.url = "jdbc:postgresql://" + host + ":" + proxy.port() + postgres.getPath();
            factory.user = endpoints.postgresUser();
            factory.password = endpoints.postgresPassword();
            factory.tls = tls;
            return factory;
        }

        String selectThroughPool(PostgresFactory factory) throws SQLException {
            try (var pool = factory.build(new MetricRegistry(), "tls-test");
                    var connection = pool.getConnection();
                    var statement = connection.createStatement();
                    var result = statement.executeQuery("SELECT 'connected'")) {
                result.next();
                return result.getString(1);
            }
        }

        @Test
        void connectsWhenItTrustsTheAuthorityAndTheNameMatches() throws SQLException {
            int before = proxy.handshakes();
            assertThat(selectThroughPool(factory("localhost", trusting(certificates.caFile(), true)))).isEqualTo("connected");
            assertThat(proxy.handshakes()).isGreaterThan(before);
        }

        @Test
        void refusesAServerSignedByAnotherAuthority() {
            assertThatThrownBy(() -> selectThroughPool(factory("localhost", trusting(certificates.otherCaFile(), true))))
                    .hasStackTraceContaining("PKIX path");
        }

        @Test
        void refusesANameTheCertificateDoesNotHoldUnlessTheCheckIsOff() throws SQLException {
            assertThatThrownBy(() -> selectThroughPool(factory("127.0.0.2", trusting(certificates.caFile(), true))))
                    .hasStackTraceContaining("The hostname 127.0.0.2 could not be verified");
            assertThat(selectThroughPool(factory("127.0.0.2", trusting(certificates.caFile(), false)))).isEqualTo("connected");
        }

        @Test
        void postgresTlsIsTheTlsBlocksAloneAndOffMeansOff() throws Exception {
            var factory = new PostgresFactory();
            factory.url = "jdbc:postgresql://localhost:5432/profilestore?ApplicationName=x&sslmode=require";
            assertThat(Validators.newValidator().validate(factory)).extracting(violation -> violation.getMessage())
                    .containsExactly("url must carry no ssl parameters (sslmode, sslrootcert, ...): use postgres.tls");
            // TLS off is off: a server that asks for TLS (the proxy speaks nothing else) is refused, not met unchecked
            var plain = new PostgresFactory();
            var endpoints = TestStack.endpoints();
            plain.url = "jdbc:postgresql://localhost:" + proxy.port() + postgres.getPath();
            plain.user = endpoints.postgresUser();
            plain.password = endpoints.postgresPassword();
            int before = proxy.handshakes();
            try (var pool = plain.build(new MetricRegistry(), "tls-off-test")) {
                assertThatThrownBy(pool::getConnection).isInstanceOf(SQLException.class);
            }
            assertThat(proxy.handshakes()).isEqualTo(before);
        }
    }

    @Nested
    class RabbitMq {

        static TlsProxy proxy;
        static URI rabbitmq;

        @BeforeAll
        static void startProxy() throws IOException {
            rabbitmq = URI.create(TestStack.endpoints().rabbitmqUri());
            proxy = TlsProxy.start(certificates.serverContext(), address(rabbitmq), TlsProxy.Start.DIRECT);
        }

        @AfterAll
        static void stopProxy() throws IOException {
            proxy.close();
        }

        RabbitMqFactory factory(String host, TlsSettings tls) {
            var factory = new RabbitMqFactory();
            factory.uri = "amqps://" + rabbitmq.getRawUserInfo() + "@" + host + ":" + proxy.port()
                    + rabbitmq.getRawPath();
            factory.tls = tls;
            return factory;
        }

        boolean connects(RabbitMqFactory factory) throws Exception {
            try (var connection = factory.connect("tls-test")) {
                return connection.isOpen();
            }
        }

        @Test
        void connectsWhenItTrustsTheAuthorityAndTheNameMatches() throws Exception {
            int before = proxy.handshakes();
            assertThat(connects(factory("localhost", trusting(certificates.caFile(), true)))).isTrue();
            assertThat(proxy.handshakes()).isGreaterThan(before);
        }

        @Test
        void refusesAServerSignedByAnotherAuthority() {
            assertThatThrownBy(() -> connects(factory("localhost", trusting(certificates.otherCaFile(), true))))
                    .hasStackTraceContaining("PKIX path");
        }

        @Test
        void refusesANameTheCertificateDoesNotHoldUnlessTheCheckIsOff() throws Exception {
            assertThatThrownBy(() -> connects(factory("127.0.0.2", trusting(certificates.caFile(), true))))
                    .hasStackTraceContaining("No subject alternative names matching IP address 127.0.0.2");
            assertThat(connects(factory("127.0.0.2", trusting(certificates.caFile(), false)))).isTrue();
        }

        @Test
        void anAmqpsUriWithoutTlsIsAConfigurationError() {
            var factory = factory("localhost", new TlsSettings());
            assertThat(Validators.newValidator().validate(factory))
                    .extracting(violation -> violation.getMessage())
                    .containsExactly("tls.enabled must be true exactly when the uri is amqps://");
        }
    }

    @Test
    void aCaFileWithTlsOffIsAConfigurationError() {
        var tls = new TlsSettings();
        tls.caFile = certificates.caFile().toString();
        assertThat(Validators.newValidator().validate(tls)).extracting(violation -> violation.getMessage())
                .containsExactly("caFile is set but enabled is false");
    }

    @Test
    void aMissingCaFileIsNamedAtStart() {
        var tls = trusting(dir.resolve("no-such-ca.pem"), true);
        assertThatThrownBy(tls::sslContext).hasMessageContaining("no-such-ca.pem");
    }

    @Test
    void aCaFileWithoutCertificatesIsNamedAtStart() throws IOException {
        var empty = Files.writeString(dir.resolve("empty.pem"), "");
        assertThatThrownBy(trusting(empty, true)::sslContext).hasMessageContaining("empty.pem");
    }
}
