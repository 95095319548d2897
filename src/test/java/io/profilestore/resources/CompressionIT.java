package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Answers are compressed for a client that accepts gzip only when they are larger than a packet: a profile (about
 * 500 bytes) goes as it is, since deflating it saves nothing on the wire; a larger answer, such as the OpenAPI document
 * (tens of kilobytes), is compressed.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CompressionIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aProfileSmallerThanAPacketIsAnsweredUncompressed() throws Exception {
        // a profile of the usual size, larger than the 256 bytes below which Jetty compresses nothing anyway
        var created = new Api(APP.getLocalPort()).create("{\"surname\": \"Сжатова\", \"firstName\": \"Анна\","
                + " \"patronymic\": \"Сергеевна\", \"birthDate\": \"1984-03-12\", \"phones\": [\"+79161234567\"],"
                + " \"email\": \"anna.szhatova@example.com\", \"documents\": [{\"type\": \"passport\","
                + " \"number\": \"4509 123456\"}], \"address\": {\"city\": \"Москва\", \"street\": \"Тверская\"}}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        var answer = gzipAccepted("/v1/profiles/" + created.pid());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(answer.body().length).isBetween(400, 1400);
        assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains(created.pid().toString());
    }

    @Test
    void anAnswerLargerThanAPacketIsCompressed() throws Exception {
        var answer = gzipAccepted("/openapi.json");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (var unzipped = new GZIPInputStream(new ByteArrayInputStream(answer.body()))) {
            assertThat(new String(unzipped.readAllBytes(), StandardCharsets.UTF_8)).contains("\"openapi\"");
        }
    }

    private static HttpResponse<byte[]> gzipAccepted(String path) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + APP.getLocalPort() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TestAuth.PLATFORM)
                .header("Accept-Encoding", "gzip")
                .GET().build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }
}
