package io.profilestore.resources;

import io.profilestore.audit.AuditPage;
import io.profilestore.audit.AuditLog;
import io.profilestore.auth.Role;
import io.profilestore.resources.problems.ProblemException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * {@code GET /v1/audit}: the audit trail by actor, profile and time range, newest first (admin). Each read is
 * itself recorded by the {@link io.profilestore.audit.AuditFilter}, before it is answered, with the pids it shows.
 */
@Path("/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    private final AuditLog log;

    public AuditResource(AuditLog log) {
        this.log = log;
    }

    @GET
    @RolesAllowed(Role.ADMIN_NAME)
    public AuditPage query(
            @QueryParam("actor") @Size(max = 200, message = "must be at most {max} characters") @NoControlCharacters
            String actor,
            @QueryParam("pid") String pid, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("before") String before, @QueryParam("limit") String limit) {
        int size = limit == null || limit.isBlank() ? 100 : number("limit", limit, 1, 1000);
        var records = log.query(blank(actor) ? null : actor, blank(pid) ? null : Pids.parse("pid", pid),
                instant("from", from), instant("to", to),
                blank(before) ? null : (long) number("before", before, 1, Integer.MAX_VALUE), size);
        return new AuditPage(records, records.size() == size ? records.get(records.size() - 1).id() : null);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Instant instant(String name, String value) {
        if (blank(value)) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest(name + " must be an instant such as 2026-11-30T10:00:00Z");
        }
    }

    private static int number(String name, String value, int min, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException ignored) {
            // refused below
        }
        throw ProblemException.badRequest(name + " must be a whole number between " + min + " and " + max);
    }
}
