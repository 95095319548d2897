package io.profilestore.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.servlets.assets.AssetServlet;
import io.profilestore.auth.AuthSettings;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The operator console: static files from the jar ({@code src/main/resources/console}) at {@code /console/}, and
 * what the page needs to know of this service ({@code /console/settings.json}: whether tokens are asked for, and
 * the OIDC provider to sign in with). The page holds no data and needs no token; every call it makes to the API
 * carries the operator's own. Nothing is fetched from elsewhere: the page works offline.
 */
public final class Console {

    public static final String PATH = "/console";

    private Console() {
    }

    public static void install(Environment environment, ConsoleSettings settings, AuthSettings auth) {
        var servlets = environment.servlets();
        servlets.addFilter("console-headers", new Headers(settings))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, PATH + "/*", PATH);
        servlets.addServlet("console-settings", new SettingsServlet(settings, auth, environment.getObjectMapper()))
                .addMapping(PATH + "/settings.json");
        servlets.addServlet("console", new AssetServlet("/console", PATH + "/", "index.html", StandardCharsets.UTF_8))
                .addMapping(PATH + "/*");
    }

    /**
     * The page's own rules: scripts, styles and calls from this origin only (and the provider's token endpoint),
     * no framing, no referrer, nothing cached (the page changes with each release and is small).
     */
    static final class Headers implements Filter {
        private final String policy;

        Headers(ConsoleSettings settings) {
            String connect = "'self'" + (settings.oidc.isConfigured() ? " " + settings.oidc.tokenOrigin() : "");
            policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src " + connect
                    + "; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            var http = (HttpServletResponse) response;
            if ("/console".equals(((HttpServletRequest) request).getRequestURI())) {
                http.sendRedirect(PATH + "/");
                return;
            }
            http.setHeader("Content-Security-Policy", policy);
            http.setHeader("Cache-Control", "no-store");
            http.setHeader("X-Content-Type-Options", "nosniff");
            http.setHeader("X-Frame-Options", "DENY");
            http.setHeader("Referrer-Policy", "no-referrer");
            chain.doFilter(request, response);
        }
    }

    /**
     * {@code /console/settings.json}: how the page signs in: whether it asks for a token at all, whether an API key
     * may be one (not where people's keys are refused), and the provider.
     */
    static final class SettingsServlet extends HttpServlet {
        private final byte[] body;

        SettingsServlet(ConsoleSettings settings, AuthSettings auth, ObjectMapper json) {
            var values = new LinkedHashMap<String, Object>();
            values.put("authEnabled", auth.enabled);
            values.put("apiKeys", auth.apiKeysForPeople);
            var oidc = settings.oidc;
            if (oidc.isConfigured()) {
                values.put("oidc", Map.of("authorizationEndpoint", oidc.authorizationEndpoint,
                        "tokenEndpoint", oidc.tokenEndpoint, "clientId", oidc.clientId, "scope", oidc.scope));
            }
            try {
                body = json.writeValueAsBytes(values);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setContentType("application/json");
            response.getOutputStream().write(body);
        }

        byte[] body() {
            return body.clone();
        }
    }
}
