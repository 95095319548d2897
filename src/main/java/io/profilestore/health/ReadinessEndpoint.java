package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.metrics.servlets.HealthCheckServlet;
import io.profilestore.api.AdminPaths;
import java.util.Map;

/**
 * {@code /ready} on the admin port, what the chart's readiness probe asks: the health checks of {@code /healthcheck},
 * but where a check judges the whole cluster rather than this instance, the instance's own part of it (Cassandra:
 * a coordinator answers, not QUORUM). An outage every instance shares takes no pod out of the Service: each goes on
 * answering what it can, and 503 with Retry-After for the rest. Open without a token, like {@code /healthcheck}.
 */
public final class ReadinessEndpoint {

    public static final String PATH = AdminPaths.READY;

    private ReadinessEndpoint() {
    }

    /** Installs it over every health check registered by now, with {@code instead} in place of those it names. */
    public static void install(Environment environment, Map<String, HealthCheck> instead) {
        var all = environment.healthChecks();
        var ready = new HealthCheckRegistry();
        for (String name : all.getNames()) {
            ready.register(name, instead.containsKey(name) ? instead.get(name) : new HealthCheck() {
                @Override
                protected Result check() {
                    return all.runHealthCheck(name);
                }
            });
        }
        environment.admin().addServlet("ready", new HealthCheckServlet(ready)).addMapping(PATH);
    }
}
