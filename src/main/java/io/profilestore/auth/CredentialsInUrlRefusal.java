package io.profilestore.auth;

import io.profilestore.api.Problem;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Credentials travel only in the Authorization header. A token in the query string (RFC 6750's
 * {@code access_token}), or in a path's matrix parameters, ends up in proxy logs, browser history and, were the request answered, the audit
 * record's request line: such a request is refused before anything reads or records it, whatever else it carries.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 200)
final class CredentialsInUrlRefusal implements ContainerRequestFilter {

    /** Parameter names that carry credentials by convention; matched case aside (they are plain ASCII). */
    private static final Set<String> CREDENTIAL_NAMES = Set.of("access_token", "api_key", "apikey", "token");

    @Override
    public void filter(ContainerRequestContext request) {
        var uri = request.getUriInfo();
        boolean carriesOne = Stream.concat(uri.getQueryParameters(true).keySet().stream(),
                        uri.getPathSegments(true).stream().flatMap(segment -> segment.getMatrixParameters().keySet().stream()))
                .anyMatch(name -> CREDENTIAL_NAMES.contains(name.toLowerCase(Locale.ROOT)));
        if (carriesOne) {
            request.abortWith(Response.status(400)
                    .type(Problem.MEDIA)
                    .entity(Problem.of(400, "credentials-in-url", "Credentials in the URL",
                            "send credentials only in the Authorization header (Bearer); a URL is logged and kept "
                                    + "where a header is not. Treat a token sent this way as exposed: replace it"))
                    .build());
        }
    }
}
