package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS on the service's own ports: the API and the admin port serve HTTPS with Dropwizard's https connector, from the
 * PKCS12 key store of a cert-manager Certificate the chart renders (its password a Secret made in the cluster); the
 * probes, the ServiceMonitor and the helm test speak HTTPS. Plain HTTP only when tls.enabled is false.
 */
class ChartTlsTest {

    static final String MOUNT = "/var/run/secrets/profile-store";

    @ParameterizedTest
    @EnumSource(Values.class)
    void bothPortsServeHttpsFromThePkcs12KeyStore(Values values) throws IOException {
        var docs = Charts.documents(values);
        for (var map : Charts.serviceConfigMaps(docs)) {
            var server = Charts.YAML.readTree(map.path("data").path("profile-store.yml").asText()).path("server");
            for (var connectors : List.of("applicationConnectors", "adminConnectors")) {
                var connector = server.path(connectors).get(0);
                var what = map.path("metadata").path("name").asText() + " " + connectors;
                assertThat(server.path(connectors)).as(what).hasSize(1);
                assertThat(connector.path("type").asText()).as(what).isEqualTo("https");
                assertThat(connector.path("keyStoreType").asText()).as(what).isEqualTo("PKCS12");
                assertThat(connector.path("keyStorePath").asText()).as(what).isEqualTo(MOUNT + "/tls/keystore.p12");
                assertThat(connector.path("keyStorePassword").asText()).as(what)
                        .isEqualTo("${file:" + MOUNT + "/tls/keystore-password}");
                assertThat(connector.path("supportedProtocols")).extracting(JsonNode::asText)
                        .containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void theCertificateIsCertManagersWithAPkcs12KeyStore(Values values) {
        var docs = Charts.documents(values);
        var certificate = Charts.named(docs, "Certificate", Charts.RELEASE).path("spec");
        assertThat(certificate.path("secretName").asText()).isEqualTo("profile-store-tls");
        var pkcs12 = certificate.path("keystores").path("pkcs12");
        assertThat(pkcs12.path("create").asBoolean()).isTrue();
        // LegacyRC2, cert-manager's default, is not read by current JDKs
        assertThat(pkcs12.path("profile").asText()).isEqualTo("Modern2023");
        assertThat(pkcs12.path("passwordSecretRef").path("name").asText()).isEqualTo("profile-store-tls-keystore-password");
        assertThat(pkcs12.path("passwordSecretRef").path("key").asText()).isEqualTo("password");
        assertThat(certificate.path("dnsNames")).extracting(JsonNode::asText).contains(
                "profile-store", "profile-store.profile-store.svc", "profile-store.profile-store.svc.cluster.local",
                "profile-store-admin", "profile-store-admin.profile-store.svc");
        assertThat(certificate.path("usages")).extracting(JsonNode::asText).contains("server auth");
        assertThat(certificate.path("issuerRef").path("name").asText()).isEqualTo("profile-store-api-ca");
        assertThat(certificate.path("issuerRef").path("kind").asText()).isEqualTo("Issuer");
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void everyPodMountsTheKeyStoreAndItsPassword(Values values) {
        var pods = ChartLeastPrivilegeTest.pods(Charts.documents(values));
        pods.keySet().removeIf(k -> k.startsWith("Pod/"));
        assertThat(pods).hasSize(5);
        pods.forEach((name, pod) -> {
            var sources = pod.path("volumes").findValue("projected").path("sources");
            assertThat(sources).as("%s mounts the key store", name).anySatisfy(source -> {
                assertThat(source.path("secret").path("name").asText()).isEqualTo("profile-store-tls");
                assertThat(source.path("secret").path("items").findValuesAsText("path")).containsExactly("tls/keystore.p12");
            });
            assertThat(sources).as("%s mounts the key store's password", name).anySatisfy(source -> {
                assertThat(source.path("secret").path("name").asText()).isEqualTo("profile-store-tls-keystore-password");
                assertThat(source.path("secret").path("items").findValuesAsText("path")).containsExactly("tls/keystore-password");
            });
        });
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void probesServiceMonitorAndTheHelmTestSpeakHttps(Values values) {
        var docs = Charts.parse(Charts.template(values, Map.of("metrics.serviceMonitor.enabled", true)));
        for (var component : List.of("api", "indexer")) {
            var container = Charts.named(docs, "Deployment", "profile-store-" + component)
                    .path("spec").path("template").path("spec").path("containers").get(0);
            for (var probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(container.path(probe).path("httpGet").path("scheme").asText())
                        .as("%s %s", component, probe).isEqualTo("HTTPS");
            }
        }
        var service = Charts.named(docs, "Service", Charts.RELEASE).path("spec").path("ports").get(0);
        assertThat(service.path("name").asText()).isEqualTo("https");
        assertThat(service.path("port").asInt()).isEqualTo(443);
        assertThat(service.path("appProtocol").asText()).isEqualTo("https");

        var endpoint = Charts.named(docs, "ServiceMonitor", Charts.RELEASE).path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("scheme").asText()).isEqualTo("https");
        var tls = endpoint.path("tlsConfig");
        assertThat(tls.path("ca").path("secret").path("name").asText()).isEqualTo("profile-store-tls");
        assertThat(tls.path("ca").path("secret").path("key").asText()).isEqualTo("ca.crt");
        assertThat(tls.path("serverName").asText()).isEqualTo("profile-store-admin.profile-store.svc");
        assertThat(tls.path("insecureSkipVerify").asBoolean(false)).isFalse();

        var test = Charts.ofKind(docs, "Pod").get(0).path("spec");
        var args = new ArrayList<String>();
        test.path("containers").get(0).path("args").forEach(a -> args.add(a.asText()));
        assertThat(args).contains("--cacert").anyMatch(a -> a.startsWith("https://profile-store-admin:8081/"));
        assertThat(test.path("volumes").findValuesAsText("secretName")).contains("profile-store-tls");
    }

    @Test
    void withTlsOffBothPortsArePlainHttpAndNoCertificateIsMade() throws IOException {
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of("tls.enabled", false)));
        var server = Charts.YAML.readTree(Charts.serviceConfig(docs)).path("server");
        assertThat(server.path("applicationConnectors").get(0).path("type").asText()).isEqualTo("http");
        assertThat(server.path("adminConnectors").get(0).path("type").asText()).isEqualTo("http");
        assertThat(Charts.ofKind(docs, "Certificate")).isEmpty();
        var container = Charts.named(docs, "Deployment", "profile-store-api").path("spec").path("template").path("spec")
                .path("containers").get(0);
        assertThat(container.path("readinessProbe").path("httpGet").path("scheme").asText("HTTP")).isEqualTo("HTTP");
    }

    /** An existing certificate of your own (its Secret with keystore.p12 and ca.crt), and no Certificate rendered. */
    @Test
    void aCertificateOfYourOwnIsMountedAsItIs() {
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of("tls.certificate.create", false,
                "tls.secretName", "my-api-tls")));
        assertThat(Charts.ofKind(docs, "Certificate")).isEmpty();
        var pod = Charts.named(docs, "Deployment", "profile-store-api").path("spec").path("template").path("spec");
        assertThat(pod.path("volumes").findValue("projected").path("sources").findValuesAsText("name")).contains("my-api-tls");
    }
}
