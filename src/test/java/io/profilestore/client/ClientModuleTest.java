package io.profilestore.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.cfg.PackageVersion;
import io.profilestore.client.model.ProfileData;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * The client module (client/pom.xml) is published with the service's version, on the Jackson the service runs with,
 * and decodes answers as UTF-8 whatever the JVM's default. Its hand-written part: a token on every request, decimals
 * read exactly, the If-Match of a version, a problem read from the service's error answer and from nothing else.
 * Against the real service: {@code JavaClientIT}.
 */
class ClientModuleTest {

    static final Path PROJECT = Path.of(System.getProperty("profileStore.projectDir", ".")).toAbsolutePath().normalize();
    static final Path CLIENT_POM = PROJECT.resolve("client/pom.xml");
    static final Path SERVICE_POM = PROJECT.resolve("pom.xml");
    static final Path GENERATED = PROJECT.resolve("client/target/generated-sources/client");

    @Test
    void theModuleCarriesTheServicesVersionAndTheJacksonTheServiceRunsWith() throws Exception {
        var client = pom(CLIENT_POM);
        var service = pom(SERVICE_POM);

        assertThat(child(client, "version")).isEqualTo(child(service, "version")).isNotBlank();
        assertThat(child(client, "groupId")).isEqualTo(child(service, "groupId"));
        assertThat(property(client, "jackson.version")).as("the Jackson the service runs with, and its tests prove")
                .isEqualTo(PackageVersion.VERSION.toString());
    }

    /**
     * The generator decodes each answer with the JVM's default charset (openapi-generator issue 20556); the module's
     * build rewrites that to UTF-8. The sources checked are those the tests compiled, the module's own output.
     */
    @Test
    void everyAnswerIsDecodedAsUtf8WhateverTheJvmsDefault() throws IOException {
        var decodings = new ArrayList<String>();
        try (var files = Files.walk(GENERATED)) {
            for (var file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Files.readAllLines(file).stream().filter(line -> line.contains("new String(")).forEach(decodings::add);
            }
        }

        assertThat(decodings).as("the answers' decodings").hasSizeGreaterThan(10)
                .allSatisfy(line -> assertThat(line).contains("readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)"));
    }

    @Test
    void decimalsAreReadExactly() throws IOException {
        var client = ProfileStoreClient.connect(URI.create("http://localhost:1"), "psk_x");

        var data = client.getObjectMapper().readValue("{\"limit\": 12345678901234567890.123456789}", ProfileData.class);

        assertThat(data.getAdditionalProperty("limit")).isEqualTo(new BigDecimal("12345678901234567890.123456789"));
    }

    @Test
    void aVersionIsNamedAsItsStrongEtag() {
        assertThat(ProfileStoreClient.ifMatch(3)).isEqualTo("\"3\"");
    }

    @Test
    void aProblemAnswerIsReadAsItsProblem() {
        var answer = new ApiException(412, "stale", headers("application/problem+json"),
                "{\"type\": \"https://profile-store.dev/problems/stale-version\", \"title\": \"Stale version\","
                        + " \"status\": 412, \"currentVersions\": {\"0b9c0000-0000-4000-8000-000000000001\": 4},"
                        + " \"added\": \"later\"}");

        var problem = ProfileStoreClient.problem(answer).orElseThrow();

        assertThat(problem.getType()).isEqualTo(URI.create("https://profile-store.dev/problems/stale-version"));
        assertThat(problem.getStatus()).isEqualTo(412);
        assertThat(problem.getCurrentVersions()).containsEntry("0b9c0000-0000-4000-8000-000000000001", 4L);
    }

    @Test
    void whatIsNotAProblemOfTheServiceHasNone() {
        assertThat(ProfileStoreClient.problem(new ApiException(new IOException("connection refused")))).isEmpty();
        assertThat(ProfileStoreClient.problem(new ApiException(502, "bad gateway", headers("text/html"),
                "<html>a proxy's page</html>"))).isEmpty();
        assertThat(ProfileStoreClient.problem(new ApiException(502, "bad gateway", headers("application/json"),
                "{\"message\": \"Bad gateway\"}"))).as("a proxy's JSON").isEmpty();
        assertThat(ProfileStoreClient.problem(new ApiException(502, "bad gateway", headers("application/problem+json"),
                "{\"title\": \"no type\"}"))).isEmpty();
    }

    @Test
    void aConnectionSendsItsTokenOnEveryRequestAndNeedsOne() {
        assertThatThrownBy(() -> ProfileStoreClient.connect(URI.create("http://localhost:1"), " "))
                .isInstanceOf(IllegalArgumentException.class);
        var client = ProfileStoreClient.connect(URI.create("https://profiles.example:8443/"), "psk_x");
        assertThat(client.getBaseUri()).isEqualTo("https://profiles.example:8443");
        assertThat(authorization(client)).containsExactly("Bearer psk_x");

        var tokens = new ArrayDeque<>(List.of("jwt-1", "jwt-2"));
        var renewed = ProfileStoreClient.connect(URI.create("https://profiles.example"), tokens::poll);
        assertThat(authorization(renewed)).as("asked at each request").containsExactly("Bearer jwt-1");
        assertThat(authorization(renewed)).containsExactly("Bearer jwt-2");
    }

    private static List<String> authorization(ApiClient client) {
        var request = HttpRequest.newBuilder(URI.create("https://profiles.example/v1/me"));
        client.getRequestInterceptor().accept(request);
        return request.build().headers().allValues("Authorization");
    }

    private static HttpHeaders headers(String contentType) {
        return HttpHeaders.of(Map.of("Content-Type", List.of(contentType)), (name, value) -> true);
    }

    private static Element pom(Path file) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    private static String child(Element parent, String name) {
        for (var node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().trim();
            }
        }
        return "";
    }

    private static String property(Element project, String name) {
        var properties = project.getElementsByTagName("properties");
        return properties.getLength() == 0 ? "" : child((Element) properties.item(0), name);
    }
}
