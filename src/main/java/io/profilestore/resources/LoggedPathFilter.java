package io.profilestore.resources;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Gives the request log the path as far as it is ours to log, as a request attribute: the words of our routes
 * (of both ports, and the console's files) and ids (UUIDs) stay, any other segment becomes {@code *}, and matrix
 * parameters ({@code ;name=value}) go. A client may put a name or a credential anywhere in a URL (a name where a
 * pid belongs); the query string is never logged either. The request log's format reads
 * {@code %reqAttribute{loggedPath}}; a request Jetty refuses before any filter runs logs "-".
 */
public class LoggedPathFilter implements Filter {

    public static final String ATTRIBUTE = "loggedPath";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http) {
            request.setAttribute(ATTRIBUTE, loggable(http.getRequestURI()));
        }
        chain.doFilter(request, response);
    }

    private static final Set<String> ROUTE_WORDS = Set.of("v1", "profiles", "profiles:batchCreate",
            "profiles:batchUpdate", "user", "users", "merge", "unmerge", "matches", "search", "audit", "me", "openapi.json",
            "asyncapi.json", "versions", "console", "healthcheck", "ping", "metrics", "prometheus", "threads", "pprof", "tasks", "gc", "log-level",
            "reconcile", "check-tables");
    private static final Pattern MATRIX = Pattern.compile(";[^/]*");
    private static final Pattern ID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    /** The console's files: lowercase names of ours (index.html, console.js, settings.json, ...). */
    private static final Pattern ASSET = Pattern.compile("[a-z0-9]+\\.(html|js|css|json|png|svg|ico)");

    static String loggable(String uri) {
        // matrix parameters are rare: the common path skips the regular expression
        var segments = (uri.indexOf(';') < 0 ? uri : MATRIX.matcher(uri).replaceAll("")).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (!segment.isEmpty() && !ROUTE_WORDS.contains(segment) && !ID.matcher(segment).matches()
                    && !(i > 0 && "console".equals(segments[i - 1]) && ASSET.matcher(segment).matches())) {
                segments[i] = "*";
            }
        }
        return String.join("/", segments);
    }
}
