package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.profilestore.api.Problem;
import io.profilestore.resources.problems.ProblemException;
import io.profilestore.resources.problems.ProblemExceptionMapper;
import io.profilestore.resources.problems.WebApplicationExceptionMapper;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The requests' metrics in Jersey, in memory: a series per route template, method and status (two pids, one series),
 * the time of the request's own work in its sum, and a problem counted by its type, whether a resource threw it or a
 * filter refused the request with it; a path of no route is {@code unmatched}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestMetricsTest {

    @Path("/v1")
    public static class Things {
        @GET
        @Path("things/{id}")
        public Response get(@PathParam("id") String id) throws InterruptedException {
            if (id.equals("slow")) {
                Thread.sleep(300); // the request's own work, taking time: what the metric's sum must show
            }
            return Response.ok("{}").build();
        }

        @PUT
        @Path("things/{id}")
        public Response put(@PathParam("id") String id) {
            throw new ProblemException(Problem.of(409, "locked", "Locked", "another request is changing " + id));
        }
    }

    /** A resource whose method has no path of its own. */
    @Path("/v1/things/{id}/parts")
    public static class Parts {
        @GET
        public Response get() {
            return Response.ok("[]").build();
        }
    }

    /** Refuses a request that asks to be refused, as the rate limit's filter does: aborted with a problem. */
    public static class Refusal implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            if (request.getHeaderString("X-Refuse") != null) {
                request.abortWith(Response.status(429).type(Problem.MEDIA)
                        .entity(Problem.of(429, "rate-limited", "Too many requests", "retry later")).build());
            }
        }
    }

    static final PrometheusRegistry REGISTRY = new PrometheusRegistry();

    static final ResourceExtension RESOURCES = ResourceExtension.builder()
            .setRegisterDefaultExceptionMappers(false)
            .addResource(new Things())
            .addResource(new Parts())
            .addProvider(new ProblemExceptionMapper())
            .addProvider(new WebApplicationExceptionMapper())
            .addProvider(new Refusal())
            .addProvider(new RequestMetrics(REGISTRY))
            .build();

    @Test
    void aSeriesPerRouteMethodAndStatusAndAProblemByItsType() {
        assertThat(RESOURCES.target("/v1/things/a1").request().get().getStatus()).isEqualTo(200);
        assertThat(RESOURCES.target("/v1/things/slow").request().get().getStatus()).isEqualTo(200);
        assertThat(RESOURCES.target("/v1/things/b2/parts").request().get().getStatus()).isEqualTo(200);
        assertThat(RESOURCES.target("/v1/things/a1").request().put(Entity.json("{}")).getStatus()).isEqualTo(409);
        assertThat(RESOURCES.target("/v1/things/c3").request().header("X-Refuse", "yes").get().getStatus())
                .isEqualTo(429);
        assertThat(RESOURCES.target("/v1/nothing/here").request().get().getStatus()).isEqualTo(404);

        var scrape = scrape();
        var getThing = "method=\"GET\",route=\"/v1/things/{id}\",status=\"200\"";
        assertThat(value(scrape, "http_server_requests_seconds_count", getThing)).isEqualTo(2);
        // the slow one's 300 ms are in the sum, and in no bucket up to 0.25 s
        assertThat(value(scrape, "http_server_requests_seconds_sum", getThing)).isGreaterThanOrEqualTo(0.3);
        assertThat(value(scrape, "http_server_requests_seconds_bucket", getThing + ",le=\"0.25\"")).isEqualTo(1);
        assertThat(value(scrape, "http_server_requests_seconds_bucket", getThing + ",le=\"+Inf\"")).isEqualTo(2);
        assertThat(value(scrape, "http_server_requests_seconds_count",
                "method=\"GET\",route=\"/v1/things/{id}/parts\",status=\"200\"")).isEqualTo(1);
        assertThat(value(scrape, "http_server_requests_seconds_count",
                "method=\"PUT\",route=\"/v1/things/{id}\",status=\"409\"")).isEqualTo(1);
        assertThat(value(scrape, "http_server_requests_seconds_count",
                "method=\"GET\",route=\"/v1/things/{id}\",status=\"429\"")).isEqualTo(1);
        assertThat(value(scrape, "http_server_requests_seconds_count",
                "method=\"GET\",route=\"unmatched\",status=\"404\"")).isEqualTo(1);
        assertThat(scrape).as("never a path's own words").doesNotContain("a1", "b2", "c3", "slow", "nothing");

        assertThat(value(scrape, "problems_total", "type=\"locked\"")).isEqualTo(1);
        assertThat(value(scrape, "problems_total", "type=\"rate-limited\"")).isEqualTo(1);
        assertThat(value(scrape, "problems_total", "type=\"not-found\"")).isEqualTo(1);
        assertThat(scrape).containsPattern("(?m)^# TYPE http_server_requests_seconds histogram$")
                .containsPattern("(?m)^# TYPE problems_total counter$");
    }

    @Test
    void methodsAndTypesOutsideTheTablesAreOther() {
        assertThat(RequestMetrics.method("PATCH")).isEqualTo("PATCH");
        assertThat(RequestMetrics.method("BREW")).isEqualTo("other");
        assertThat(RequestMetrics.type(new Problem("about:blank", "x", 400, "y", Map.of()))).isEqualTo("other");
        assertThat(RequestMetrics.type(Problem.of(409, "locked", "Locked", "z"))).isEqualTo("locked");
    }

    private static String scrape() {
        var out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, REGISTRY.scrape());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The value of the sample of a name with these labels (in the order the scrape writes them: by name). */
    private static double value(String scrape, String name, String labels) {
        var matcher = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$").matcher(scrape);
        assertThat(matcher.find()).as("%s{%s} in\n%s", name, labels, scrape).isTrue();
        return Double.parseDouble(matcher.group(1));
    }
}
