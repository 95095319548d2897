package io.profilestore.backends;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import co.elastic.clients.transport.rest5_client.Rest5ClientTransport;
import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.DefaultHostnameVerifier;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.apache.hc.core5.util.Timeout;

/** How the service reaches Elasticsearch, and the index it searches through an alias. */
public class ElasticsearchFactory {

    @NotEmpty
    public List<URI> hosts = List.of(URI.create("http://127.0.0.1:19200"));

    /** The alias the service reads and writes; it points to one concrete index {@code <alias>-vN}. */
    @NotEmpty
    @Pattern(regexp = "[a-z][a-z0-9_-]{0,100}")
    public String indexAlias = "profiles";

    @Valid
    @NotNull
    public IndexSettings index = new IndexSettings();

    @NotNull
    public Duration connectTimeout = Duration.seconds(2);

    @NotNull
    public Duration requestTimeout = Duration.seconds(10);

    public String username;
    public String password;
    public String apiKey;

    /** On exactly when the hosts are {@code https}: a mismatch is refused at start, not found at the first request. */
    @Valid
    @NotNull
    public TlsSettings tls = new TlsSettings();

    @ValidationMethod(message = "tls.enabled must be true exactly when every host is https://")
    @JsonIgnore
    public boolean isTlsMatchingHosts() {
        return hosts == null || tls == null
                || hosts.stream().allMatch(host -> "https".equalsIgnoreCase(host.getScheme()) == tls.enabled);
    }

    /**
     * The typed client over the REST 5 transport; close it through {@link ElasticsearchClient#close()}. Documents
     * are written with a mapper that knows java.time (dates as ISO text).
     */
    public ElasticsearchClient build() {
        var rest = Rest5Client.builder(hosts)
                .setDefaultHeaders(authHeaders())
                .setRequestConfigCallback(request -> request
                        .setConnectionRequestTimeout(Timeout.of(connectTimeout.toJavaDuration()))
                        .setResponseTimeout(Timeout.of(requestTimeout.toJavaDuration())))
                .setConnectionConfigCallback(connection -> connection
                        .setConnectTimeout(Timeout.of(connectTimeout.toJavaDuration())));
        if (tls.enabled) {
            var context = tls.sslContext();
            // the name check stated, not left to the builder's defaults: with those, no name was checked
            // (BackendTlsIT)
            var strategy = ClientTlsStrategyBuilder.create()
                    .setSslContext(context)
                    .setHostVerificationPolicy(HostnameVerificationPolicy.CLIENT)
                    .setHostnameVerifier(tls.verifyHostname ? new DefaultHostnameVerifier() : NoopHostnameVerifier.INSTANCE)
                    .buildAsync();
            rest.setConnectionManagerCallback(connections -> connections.setTlsStrategy(strategy));
        }
        var client = rest.build();
        var json = Jackson.newObjectMapper().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        return new ElasticsearchClient(new Rest5ClientTransport(client, new JacksonJsonpMapper(json)));
    }

    private Header[] authHeaders() {
        if (apiKey != null && !apiKey.isBlank()) {
            return new Header[] {new BasicHeader("Authorization", "ApiKey " + apiKey)};
        }
        if (username != null && !username.isBlank()) {
            var token = Base64.getEncoder().encodeToString(
                    (username + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
            return new Header[] {new BasicHeader("Authorization", "Basic " + token)};
        }
        return new Header[0];
    }
}
