package io.profilestore.resources;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;

/**
 * Checks a {@link ConditionalWrite}'s pid (400), then its If-Match (428 when missing, 400 when garbled), after the
 * caller's role and before the body is read and validated: a client that forgot If-Match hears so even when its
 * body is wrong too. The resource method parses both again, to use them. A {@link CreatesAtPid} method takes
 * {@code If-None-Match: *} instead, and no If-Match: a create, whose body is checked by the method.
 */
@ConditionalWrite
@Priority(Priorities.USER)
public class ConditionalWriteChecks implements ContainerRequestFilter {

    @Context
    private ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        Pids.parse("pid", request.getUriInfo().getPathParameters().getFirst("pid"));
        String ifMatch = request.getHeaderString(HttpHeaders.IF_MATCH);
        String ifNoneMatch = request.getHeaderString(HttpHeaders.IF_NONE_MATCH);
        if (ifNoneMatch != null) {
            IfNoneMatch.requireCreate(ifNoneMatch, ifMatch, resource.getResourceMethod().isAnnotationPresent(CreatesAtPid.class));
            return;
        }
        IfMatch.version(ifMatch);
    }
}
