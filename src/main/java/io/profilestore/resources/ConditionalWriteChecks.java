package io.profilestore.resources;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * Checks a {@link ConditionalWrite}'s pid (400), then its If-Match (428 when missing, 400 when garbled), after the
 * caller's role and before the body is read and validated: a client that forgot If-Match hears so even when its
 * body is wrong too. The resource method parses both again, to use them.
 */
@ConditionalWrite
@Priority(Priorities.USER)
public class ConditionalWriteChecks implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        Pids.parse("pid", request.getUriInfo().getPathParameters().getFirst("pid"));
        IfMatch.version(request.getHeaderString(HttpHeaders.IF_MATCH));
    }
}
