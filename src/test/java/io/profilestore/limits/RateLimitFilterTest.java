package io.profilestore.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.annotation.Priority;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The filter in Jersey, in memory: the third read of a caller with a burst of 2 is 429, a write never is. */
@ExtendWith(DropwizardExtensionsSupport.class)
class RateLimitFilterTest {

    @Path("/v1/things")
    public static class Things {
        @GET
        public Response get() {
            return Response.ok("{}").tag("1").build();
        }

        @PUT
        public Response put() {
            return Response.ok("{}").tag("2").build();
        }
    }

    /** Stands in for authentication: every request is anna, an operator. */
    @Priority(Priorities.AUTHENTICATION)
    public static class Anna implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            var anna = new Caller("anna", Caller.Kind.JWT, Set.of(Role.OPERATOR));
            request.setSecurityContext(new SecurityContext() {
                @Override
                public Principal getUserPrincipal() {
                    return anna;
                }

                @Override
                public boolean isUserInRole(String role) {
                    return true;
                }

                @Override
                public boolean isSecure() {
                    return false;
                }

                @Override
                public String getAuthenticationScheme() {
                    return "test";
                }
            });
        }
    }

    static final ResourceExtension RESOURCES = ResourceExtension.builder()
            .addResource(new Things())
            .addProvider(new Anna())
            .addProvider(new RateLimitFeature(new CallerBuckets(settings()), new RateLimitMetrics(new PrometheusRegistry(), 10)))
            .build();

    static RateLimitSettings settings() {
        var settings = new RateLimitSettings();
        settings.roles.get("operator").reads = new RateLimitSettings.Limit(0.01, 2);
        return settings;
    }

    @Test
    void pastTheBurstA429WithRetryAfterAndNothingOfTheResource() {
        var things = RESOURCES.target("/v1/things");
        assertThat(things.request().get().getStatus()).isEqualTo(200);
        assertThat(things.request().get().getStatus()).isEqualTo(200);
        var refused = things.request().get();
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeaderString("Retry-After")).isEqualTo("100");
        assertThat(refused.getHeaderString("ETag")).isNull();
        assertThat(refused.getMediaType().toString()).isEqualTo("application/problem+json");
        assertThat(refused.readEntity(String.class)).contains("https://profile-store.dev/problems/rate-limited");
        for (int i = 0; i < 5; i++) {
            assertThat(things.request().put(jakarta.ws.rs.client.Entity.json("{}")).getStatus()).as("a write").isEqualTo(200);
        }
    }
}
