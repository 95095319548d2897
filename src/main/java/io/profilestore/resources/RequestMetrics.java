package io.profilestore.resources;

import io.profilestore.api.Problem;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.server.monitoring.ApplicationEvent;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.server.monitoring.RequestEvent;
import org.glassfish.jersey.server.monitoring.RequestEventListener;
import org.glassfish.jersey.uri.UriTemplate;

/**
 * The API's requests by route, which Dropwizard's metrics do not have (Jetty's count all requests together, and no
 * resource method is {@code @Timed}): {@code http_server_requests_seconds{route, method, status}}, a histogram of the
 * time from Jersey taking a request to its answer written, and {@code problems_total{type}}, the answers that were
 * problems, by their type's slug ({@code locked}, {@code rate-limited}). The labels are bounded, so the series are:
 * the route is the matched resource method's path template ({@code /v1/profiles/{pid}}, never a pid) or
 * {@code unmatched}; the method one the API knows or {@code other}; the status a code; the type a slug of the problem
 * table (docs/api.md), set in code and never from a request. Requests that Jetty refuses before Jersey sees them (a
 * malformed request) are in Jetty's own counts only.
 */
public final class RequestMetrics implements ApplicationEventListener {

    public static final String REQUESTS = "http_server_requests_seconds";
    /** The counter's name; Prometheus' text format adds {@code _total}. */
    public static final String PROBLEMS = "problems";
    static final String UNMATCHED = "unmatched";
    static final String OTHER = "other";
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    /**
     * Prometheus' default buckets, 5 ms to 10 s: a read answers in milliseconds, a batch or a merge in up to
     * seconds. Classic buckets only: the text format /prometheus serves has no native histograms.
     */
    private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final Histogram requests;
    private final Counter problems;
    /**
     * Each resource method's route, worked out once: a method's templates never change (no resource here is reached
     * through a sub-resource locator, which would reach one method from several paths).
     */
    private final Map<ResourceMethod, String> routes = new ConcurrentHashMap<>();

    public RequestMetrics(PrometheusRegistry registry) {
        this.requests = Histogram.builder()
                .name(REQUESTS)
                .unit(Unit.SECONDS)
                .help("The API's requests by route (path template), method and status, from Jersey taking them to "
                        + "the answer written")
                .labelNames("route", "method", "status")
                .classicOnly()
                .classicUpperBounds(BUCKETS)
                .register(registry);
        this.problems = Counter.builder()
                .name(PROBLEMS)
                .help("The API's answers that were problems (application/problem+json), by problem type")
                .labelNames("type")
                .register(registry);
    }

    @Override
    public void onEvent(ApplicationEvent event) {
    }

    /** Called as Jersey starts a request: its clock starts here. */
    @Override
    public RequestEventListener onRequest(RequestEvent start) {
        long started = System.nanoTime();
        return event -> {
            if (event.getType() == RequestEvent.Type.FINISHED) {
                finished(event, (System.nanoTime() - started) / 1e9);
            }
        };
    }

    private void finished(RequestEvent event, double seconds) {
        var response = event.getContainerResponse();
        // no response only when an exception escaped every mapper: Jersey then answers 500
        int status = response == null ? 500 : response.getStatus();
        var uri = event.getUriInfo();
        var matched = uri == null ? null : uri.getMatchedResourceMethod();
        String route = matched == null ? UNMATCHED : routes.computeIfAbsent(matched, m -> route(uri));
        requests.labelValues(route, method(event.getContainerRequest().getMethod()),
                Integer.toString(status)).observe(seconds);
        if (response != null && response.getEntity() instanceof Problem problem) {
            problems.labelValues(type(problem)).inc();
        }
    }

    /** The matched resource method's path template, from the resource class's {@code @Path} down. */
    static String route(ExtendedUriInfo uri) {
        if (uri == null || uri.getMatchedResourceMethod() == null) {
            return UNMATCHED;
        }
        // the templates matched, innermost first: /{pid} then /v1/profiles
        List<UriTemplate> templates = uri.getMatchedTemplates();
        var route = new StringBuilder();
        for (int i = templates.size() - 1; i >= 0; i--) {
            String template = templates.get(i).getTemplate();
            if (!template.isEmpty() && !template.equals("/")) {
                route.append(template.startsWith("/") ? "" : "/").append(template);
            }
        }
        String joined = route.toString().replaceAll("/{2,}", "/");
        return joined.isEmpty() ? "/" : joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    static String method(String method) {
        return METHODS.contains(method) ? method : OTHER;
    }

    /** The slug of a problem type of ours ({@code locked}), or {@code other}. */
    static String type(Problem problem) {
        String type = problem.type();
        return type != null && type.startsWith(Problem.TYPE_BASE) && type.length() > Problem.TYPE_BASE.length()
                ? type.substring(Problem.TYPE_BASE.length()) : OTHER;
    }
}
