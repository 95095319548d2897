package io.profilestore.auth;

import io.dropwizard.auth.AuthDynamicFeature;
import io.dropwizard.auth.AuthValueFactoryProvider;
import io.dropwizard.auth.UnauthorizedHandler;
import io.dropwizard.auth.oauth.OAuthCredentialAuthFilter;
import io.dropwizard.core.setup.Environment;
import io.profilestore.api.Problem;
import jakarta.annotation.Priority;
import jakarta.servlet.DispatcherType;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;
import java.util.EnumSet;
import org.glassfish.jersey.server.filter.RolesAllowedDynamicFeature;

/**
 * Puts authentication and authorization in place: bearer tokens on the API (every resource method says which
 * roles it allows), only in the Authorization header, security headers on every answer; the same tokens with the
 * admin role on the admin port.
 */
public final class Security {

    public static final String REALM = "profile-store";

    private Security() {
    }

    /**
     * The one authenticator of both ports, its files watched from now on (null with authentication off). Made once:
     * the API's port and the admin port see a key revoked at the same moment.
     */
    public static BearerAuthenticator authenticator(Environment environment, AuthSettings settings) {
        if (!settings.enabled) {
            return null;
        }
        var scheduler = environment.lifecycle().scheduledExecutorService("credential-files", true).threads(1).build();
        return CredentialFiles.watched(settings, scheduler, environment.metrics());
    }

    public static void install(Environment environment, AuthSettings settings, BearerAuthenticator authenticator) {
        var jersey = environment.jersey();
        jersey.register(new CredentialsInUrlRefusal());
        if (settings.enabled) {
            jersey.register(new AuthDynamicFeature(new OAuthCredentialAuthFilter.Builder<Caller>()
                    .setAuthenticator(authenticator)
                    .setAuthorizer(authenticator)
                    .setPrefix("Bearer")
                    .setRealm(REALM)
                    .setUnauthorizedHandler(new UnauthorizedHandler() {
                        @Override
                        public Response buildResponse(String prefix, String realm) {
                            return unauthorized();
                        }
                    })
                    .buildAuthFilter()));
        } else {
            jersey.register(new AnonymousCaller());
        }
        jersey.register(RolesAllowedDynamicFeature.class);
        jersey.register(new AuthValueFactoryProvider.Binder<>(Caller.class));
        jersey.register(new SecurityHeaders());
    }

    /**
     * The admin port of either role, API or indexer: the same tokens, the admin role (see {@link AdminAuthFilter}).
     * With authentication off, it is as open as the API.
     */
    public static void installOnAdminPort(Environment environment, AuthSettings settings,
            BearerAuthenticator authenticator) {
        if (settings.enabled) {
            environment.admin().addFilter("admin-auth", new AdminAuthFilter(authenticator))
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        }
    }

    static Response unauthorized() {
        return Response.status(401)
                .header("WWW-Authenticate", "Bearer realm=\"" + REALM + "\"")
                .type(Problem.MEDIA)
                .entity(Problem.of(401, "unauthorized", "Unauthorized",
                        "send Authorization: Bearer with an API key or a valid, unexpired JWT"))
                .build();
    }

    /** With authentication off, every request is the anonymous caller, who has every role. */
    @Priority(Priorities.AUTHENTICATION)
    static final class AnonymousCaller implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            boolean secure = request.getSecurityContext() != null && request.getSecurityContext().isSecure();
            request.setSecurityContext(new SecurityContext() {
                @Override
                public Principal getUserPrincipal() {
                    return Caller.ANONYMOUS;
                }

                @Override
                public boolean isUserInRole(String role) {
                    return true;
                }

                @Override
                public boolean isSecure() {
                    return secure;
                }

                @Override
                public String getAuthenticationScheme() {
                    return "none";
                }
            });
        }
    }

    /**
     * Answers about people's data are for the caller alone: not cached anywhere, not sniffed, not framed, not
     * referred. Last of the response filters (they run from the highest priority down), so that it decorates whatever
     * answer they leave: the audit's refusal, which drops every header of the answer it replaces, included.
     */
    @Priority(Priorities.AUTHENTICATION - 300)
    static final class SecurityHeaders implements ContainerResponseFilter {
        @Override
        public void filter(ContainerRequestContext request, ContainerResponseContext response) {
            var headers = response.getHeaders();
            headers.putSingle("Cache-Control", "no-store");
            headers.putSingle("X-Content-Type-Options", "nosniff");
            headers.putSingle("X-Frame-Options", "DENY");
            headers.putSingle("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
            headers.putSingle("Referrer-Policy", "no-referrer");
            if (request.getSecurityContext() != null && request.getSecurityContext().isSecure()) {
                headers.putSingle("Strict-Transport-Security", "max-age=31536000");
            }
        }
    }
}
