package io.profilestore.audit;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Every request has an id: the client's {@code Request-Id} header when it is a UUID, else one made here; every answer
 * says the one used in the same header. A change carries it into what it writes: the rows of Cassandra
 * ({@code written_by}), its audit record and a merge's journal, so the rows say which request made each version. A
 * header that is not a UUID (a gateway's own format, say) is not refused, which would break every request of such a
 * client, but not used either: the id is stored with every row the request writes, so it must not carry a name. The
 * nil UUID is not used: it stands for "no writer".
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 250)
public final class RequestIds implements ContainerRequestFilter, ContainerResponseFilter {

    public static final String HEADER = "Request-Id";
    private static final String PROPERTY = RequestIds.class.getName();
    /** The canonical form only (UUID.fromString takes "1-2-3-4-5" too). */
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final UUID NIL = new UUID(0, 0);

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(PROPERTY, given(request.getHeaderString(HEADER)));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (!(request.getProperty(PROPERTY) instanceof UUID)) {
            request.setProperty(PROPERTY, UUID.randomUUID()); // refused before this filter's request side ran
        }
        response.getHeaders().putSingle(HEADER, request.getProperty(PROPERTY).toString());
    }

    /** The request's id (one is made for a request that reached no filter of this kind). */
    public static UUID of(ContainerRequestContext request) {
        if (!(request.getProperty(PROPERTY) instanceof UUID)) {
            request.setProperty(PROPERTY, UUID.randomUUID());
        }
        return (UUID) request.getProperty(PROPERTY);
    }

    /** The id a header gives: itself when it is a UUID other than the nil one, else a new one. */
    static UUID given(String header) {
        if (header != null && UUID_TEXT.matcher(header).matches()) {
            var id = UUID.fromString(header.toLowerCase(Locale.ROOT));
            if (!NIL.equals(id)) {
                return id;
            }
        }
        return UUID.randomUUID();
    }
}
