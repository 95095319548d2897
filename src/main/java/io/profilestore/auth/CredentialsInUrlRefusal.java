package io.profilestore.auth;

import io.profilestore.api.Problem;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;

/**
 * Credentials travel only in the Authorization header. A token in the query string (RFC 6750's
 * {@code access_token}, or any parameter whose value is shaped like a token: {@link CredentialsInUrl}), or in a
 * path's matrix parameters, ends up in proxy logs, browser history and, were the request answered, the audit
 * record's request line: such a request is refused before anything reads or records it, whatever else it carries.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 200)
final class CredentialsInUrlRefusal implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        var uri = request.getUriInfo();
        boolean carriesOne = CredentialsInUrl.carries(uri.getQueryParameters(true))
                || uri.getPathSegments(true).stream().anyMatch(segment -> CredentialsInUrl.carries(segment.getMatrixParameters()));
        if (carriesOne) {
            request.abortWith(Response.status(400)
                    .type(Problem.MEDIA)
                    .entity(Problem.of(400, "credentials-in-url", "Credentials in the URL",
                            CredentialsInUrl.DETAIL))
                    .build());
        }
    }
}
