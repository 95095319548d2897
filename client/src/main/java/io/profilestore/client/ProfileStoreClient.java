package io.profilestore.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.client.model.Problem;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the generated client leaves to its user, written once: a connection to a profile-store service with its
 * credential on every request, numbers read exactly, and bounded waits; the {@code If-Match} of a version; the
 * RFC 9457 problem of an error answer. Everything else is generated from the service's OpenAPI document
 * ({@code io.profilestore.client.api}, {@code io.profilestore.client.model}); docs/java-client.md shows their use.
 */
public final class ProfileStoreClient {

    /** How long a connection may take to open. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** How long an answer may take to begin (its status and headers; {@code HttpRequest.timeout}). */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private static final String PROBLEM_TYPE = "application/problem+json";
    private static final ObjectMapper PROBLEMS = new JSON().getMapper();

    private ProfileStoreClient() {
    }

    /**
     * A client of the service at {@code baseUri} (its application port, e.g. {@code https://profiles.bank.example}),
     * sending {@code token} (an API key {@code psk_…}) as a bearer credential on every request. Profiles' decimal
     * numbers are read as {@link java.math.BigDecimal}, so that a document read and written back keeps them as the
     * service keeps them: exactly. Configure it further if needed, then make each API class once on it:
     * {@code new ProfilesApi(client)} (an API class copies the client's settings when made).
     */
    public static ApiClient connect(URI baseUri, String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("a token is required: an API key (psk_…) or a JWT");
        }
        return connect(baseUri, () -> token);
    }

    /**
     * As {@link #connect(URI, String)}, asking {@code tokens} for the credential at each request: for a JWT, which
     * expires, give the supplier that holds the current one.
     */
    public static ApiClient connect(URI baseUri, Supplier<String> tokens) {
        Objects.requireNonNull(baseUri, "baseUri");
        Objects.requireNonNull(tokens, "tokens");
        var client = new ApiClient();
        client.updateBaseUri(baseUri.toString().replaceAll("/+$", ""));
        client.setConnectTimeout(CONNECT_TIMEOUT);
        client.setReadTimeout(READ_TIMEOUT);
        client.setRequestInterceptor(request -> request.setHeader("Authorization", "Bearer " + tokens.get()));
        // getObjectMapper() answers a copy: the mapper the API classes take is the one set here
        client.setObjectMapper(ApiClient.createDefaultObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS));
        return client;
    }

    /** The {@code If-Match} value that names a profile's version (its strong ETag): {@code "3"} for 3. */
    public static String ifMatch(long version) {
        return "\"" + version + "\"";
    }

    /**
     * The problem the service answered with ({@code application/problem+json}: its {@code type} ends in the slug, such
     * as {@code stale-version}, and {@code currentVersions}, {@code locked} or {@code masterUid} say more where they
     * apply); nothing when the failure was no answer at all (code 0: refused, timed out) or not the service's (a
     * proxy's page).
     */
    public static Optional<Problem> problem(ApiException failure) {
        var headers = failure.getResponseHeaders();
        var body = failure.getResponseBody();
        if (failure.getCode() == 0 || headers == null || body == null
                || !headers.firstValue("Content-Type").orElse("").toLowerCase().startsWith(PROBLEM_TYPE)) {
            return Optional.empty();
        }
        try {
            var problem = PROBLEMS.readValue(body, Problem.class);
            return problem.getType() == null ? Optional.empty() : Optional.of(problem);
        } catch (JsonProcessingException notAProblem) {
            return Optional.empty();
        }
    }
}
