package io.profilestore.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An OIDC provider for the console's browser test: its authorization endpoint signs the operator in at once
 * (redirects back with a code), and its token endpoint gives a JWT of {@link TestAuth}'s issuer only for the code
 * with the verifier whose S256 hash came with it (PKCE), once.
 */
public final class FakeOidcProvider implements AutoCloseable {

    public static final String CLIENT_ID = "profile-store-console";

    private record Grant(String challenge, String redirectUri) {
    }

    private final HttpServer server;
    private final Map<String, Grant> codes = new ConcurrentHashMap<>();
    private final String subject;
    private final List<String> roles;

    public FakeOidcProvider(String subject, List<String> roles) {
        this.subject = subject;
        this.roles = roles;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/authorize", this::authorize);
        server.createContext("/token", this::token);
        server.start();
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void authorize(HttpExchange exchange) throws IOException {
        var query = parse(exchange.getRequestURI().getRawQuery());
        if (!CLIENT_ID.equals(query.get("client_id")) || !"S256".equals(query.get("code_challenge_method"))
                || query.get("code_challenge") == null || !"code".equals(query.get("response_type"))) {
            answer(exchange, 400, "{\"error\": \"invalid_request\"}", null);
            return;
        }
        String code = UUID.randomUUID().toString();
        codes.put(code, new Grant(query.get("code_challenge"), query.get("redirect_uri")));
        exchange.getResponseHeaders().add("Location", query.get("redirect_uri") + "?code=" + code + "&state="
                + URLEncoder.encode(query.get("state"), StandardCharsets.UTF_8));
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    private void token(HttpExchange exchange) throws IOException {
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        var form = parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        var grant = codes.remove(form.getOrDefault("code", ""));
        if (grant == null || !grant.redirectUri().equals(form.get("redirect_uri")) || form.get("code_verifier") == null
                || !grant.challenge().equals(s256(form.get("code_verifier")))) {
            answer(exchange, 400, "{\"error\": \"invalid_grant\"}", origin);
            return;
        }
        String token = TestAuth.jwt(subject, roles, Duration.ofMinutes(10));
        answer(exchange, 200, "{\"access_token\": \"" + token + "\", \"token_type\": \"Bearer\"}", origin);
    }

    private static String s256(String verifier) {
        try {
            var hash = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answer(HttpExchange exchange, int status, String body, String origin) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        if (origin != null) {
            exchange.getResponseHeaders().add("Access-Control-Allow-Origin", origin);
        }
        var bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static Map<String, String> parse(String text) {
        var values = new HashMap<String, String>();
        if (text == null) {
            return values;
        }
        for (String pair : text.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                values.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
