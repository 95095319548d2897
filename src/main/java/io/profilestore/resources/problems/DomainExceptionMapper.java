package io.profilestore.resources.problems;

import io.profilestore.api.Problem;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.profiles.DocumentTooLargeException;
import io.profilestore.profiles.InvalidDocumentException;
import io.profilestore.users.OperationPendingException;
import io.profilestore.profiles.ProfileExistsException;
import io.profilestore.profiles.ProfileNotErasedException;
import io.profilestore.profiles.ProfileNotFoundException;
import io.profilestore.profiles.UserFullException;
import io.profilestore.profiles.UserMergedException;
import io.profilestore.profiles.UserNotFoundException;
import io.profilestore.users.UserOperationException;
import io.profilestore.profiles.VersionMismatchException;
import io.profilestore.history.VersionNotFoundException;
import io.profilestore.search.InvalidSearchException;
import io.profilestore.search.SearchUnavailableException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What each refusal of the domain and each outage of a backing service means over HTTP. */
public class DomainExceptionMapper implements ExceptionMapper<RuntimeException> {

    private static final Logger LOG = LoggerFactory.getLogger(DomainExceptionMapper.class);

    private final UnexpectedExceptionMapper unexpected = new UnexpectedExceptionMapper();

    @Override
    public Response toResponse(RuntimeException exception) {
        var problem = problemOf(exception);
        if (problem == null) {
            return unexpected.toResponse(exception);
        }
        if (problem.status() == 503) {
            LOG.warn("answered 503: {}", exception.toString());
        }
        return Problems.response(problem);
    }

    public static Problem problemOf(RuntimeException exception) {
        if (exception instanceof ProfileNotFoundException e) {
            return Problem.of(404, "profile-not-found", "Profile not found",
                    e.pids().size() == 1 ? "no profile has pid " + e.pids().get(0) : "no profile has these pids")
                    .with(Map.of("pids", e.pids()));
        }
        if (exception instanceof ProfileNotErasedException e) {
            return Problem.of(409, "profile-not-erased", "Profile not erased", "profile " + e.pid() + " stands at version "
                    + e.version() + ": erase it first, or purge with If-Match naming that version and erase=true to"
                    + " erase it with its history").with(Map.of("currentVersions", Map.of(e.pid(), e.version())));
        }
        if (exception instanceof VersionNotFoundException e) {
            return Problem.of(404, "version-not-found", "Version not found", "profile " + e.pid() + " keeps no version "
                    + e.version() + ": it never had one, or it is past the history's retention, or it was purged");
        }
        if (exception instanceof UserNotFoundException e) {
            return e.addressed() ? Problem.of(404, "user-not-found", "User not found", "no user has uid " + e.uid())
                    : Problem.of(422, "user-not-found", "User not found", "no user has uid " + e.uid());
        }
        if (exception instanceof UserFullException e) {
            return Problem.of(422, "user-full", "Too many profiles", e.getMessage()).with(Map.of("limit", e.limit()));
        }
        if (exception instanceof UserOperationException e) {
            return switch (e.kind()) {
                case INVALID -> Problem.of(400, "invalid-request", "Bad request", e.getMessage());
                case NOT_FOUND -> Problem.of(404, "merge-not-found", "Merge not found", e.getMessage());
                case CONFLICT -> Problem.of(409, "conflict", "Conflict", e.getMessage());
                case TOO_LARGE -> e.limit() == null
                        ? Problem.of(422, "merge-too-large", "Merge too large", e.getMessage())
                        : Problem.of(422, "merge-too-large", "Merge too large", e.getMessage()).with(Map.of("limit", e.limit()));
            };
        }
        if (exception instanceof UserMergedException e) {
            return Problem.of(409, "user-merged", "User was merged", "user " + e.uid() + " was merged into "
                    + e.masterUid() + "; create the profile under the master").with(Map.of("masterUid", e.masterUid()));
        }
        if (exception instanceof ProfileExistsException e) {
            return Problem.of(412, "profile-exists", "Precondition failed",
                    "a profile stands at this pid, so nothing was created; read it to see whether it is the one you sent")
                    .with(Map.of("currentVersions", e.currentVersions()));
        }
        if (exception instanceof VersionMismatchException e) {
            return Problem.of(412, "stale-version", "Precondition failed",
                    "the profile changed since you read it; read it again and retry")
                    .with(Map.of("currentVersions", e.currentVersions()));
        }
        if (exception instanceof InvalidDocumentException e) {
            return Problem.of(400, "invalid-document", "Invalid document", e.getMessage());
        }
        if (exception instanceof DocumentTooLargeException e) {
            return Problem.of(413, "document-too-large", "Document too large", e.getMessage())
                    .with(Map.of("limit", e.limit()));
        }
        if (exception instanceof EntitiesLockedException e) {
            return Problem.of(409, "locked", "Locked",
                    "another request is changing " + String.join(", ", e.entities()) + "; retry shortly")
                    .with(Map.of("locked", e.entities()));
        }
        if (exception instanceof OperationPendingException e) {
            String kind = e.kind().name().toLowerCase();
            return Problem.of(503, "operation-pending", "Service unavailable", "the " + kind + " is recorded as "
                    + e.operationId() + " but its write was not confirmed: it is completed within the recovery delay"
                    + " (users.recoveryDelay, 15 s by default), or abandoned if its users changed meanwhile; GET /v1/users/"
                    + e.target() + " then shows which").with(Map.of("operationId", e.operationId()));
        }
        if (exception instanceof LeaseLostException e) {
            return Problem.of(503, "lease-lost", "Service unavailable", e.maybeWritten()
                    ? "the change took longer than its lock allows: it may or may not have been applied; read the profile"
                    : "the change took longer than its lock allows and was not applied; retry");
        }
        if (exception instanceof CassandraUnavailableException e) {
            return Problem.of(503, "cassandra-unavailable", "Service unavailable", e.maybeApplied()
                    ? "Cassandra did not confirm the write: it may or may not have been applied; read the profile"
                    : "Cassandra is unavailable; nothing was changed");
        }
        if (exception instanceof InvalidSearchException e) {
            return Problem.of(400, e.slug(), e.slug().equals("cursor-expired") ? "Cursor expired" : "Invalid search",
                    e.getMessage());
        }
        if (exception instanceof SearchUnavailableException) {
            return Problem.of(503, "search-unavailable", "Service unavailable",
                    "search is unavailable right now; profiles can still be read and written");
        }
        if (exception instanceof PostgresUnavailableException e) {
            // a change whose record may have been committed is completed by the next holder of its locks
            return Problem.of(503, "postgres-unavailable", "Service unavailable", e.commitUnconfirmed()
                    ? "PostgreSQL did not confirm recording the change: it may or may not be applied; read the profile"
                    : "PostgreSQL is unavailable; nothing was changed");
        }
        return null;
    }
}
