package io.profilestore.audit;

import io.profilestore.api.Problem;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Every request has an id: the client's {@code Request-Id} header, a UUID, or one made here; every answer says it in
 * the same header. A change carries it into what it writes: the rows of Cassandra ({@code written_by}), its audit
 * record and a merge's journal. So the rows say which request made each version, and a client whose request got no
 * answer (a timeout) can have it looked up. A UUID and nothing else: a chosen text would be stored with every row
 * and could carry a name.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 250)
public final class RequestIds implements ContainerRequestFilter, ContainerResponseFilter {

    public static final String HEADER = "Request-Id";
    private static final String PROPERTY = RequestIds.class.getName();
    /** The canonical form only (UUID.fromString takes "1-2-3-4-5" too). */
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    @Override
    public void filter(ContainerRequestContext request) {
        String given = request.getHeaderString(HEADER);
        if (given == null || given.isEmpty()) {
            request.setProperty(PROPERTY, UUID.randomUUID());
        } else if (UUID_TEXT.matcher(given).matches()) {
            request.setProperty(PROPERTY, UUID.fromString(given));
        } else {
            request.abortWith(Response.status(400).type(Problem.MEDIA)
                    .entity(Problem.of(400, "invalid-field", "Invalid field",
                            "Request-Id must be a UUID (like 3f1c0a52-5b7e-4d2a-9c1e-0b6f2d8e4a17), or left out"))
                    .build());
        }
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(PROPERTY) instanceof UUID id) {
            response.getHeaders().putSingle(HEADER, id.toString());
        }
    }

    /** The request's id (null only for a request this filter refused). */
    public static UUID of(ContainerRequestContext request) {
        return request.getProperty(PROPERTY) instanceof UUID id ? id : null;
    }
}
