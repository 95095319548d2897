package io.profilestore.faults;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One request of the workload and its answer: a line of the history ({@code history.jsonl}, one JSON object per
 * line; faults/README.md describes the fields). Times are nanoseconds since the run began, so that an external
 * checker can order what did not overlap.
 *
 * @param op        create, put, patch, batchUpdate, erase, move, merge, unmerge, read
 * @param pids      the profiles the request names (for a create: the one its answer made)
 * @param uid       the user it names (a create's user, as answered; move's target; merge's and unmerge's target;
 *                  the user a read was answered)
 * @param source    a merge's or unmerge's source user
 * @param ifMatch   the version the request said it replaces (single-profile changes)
 * @param status    the HTTP status, or 0 when no answer came (connection refused or reset, timeout)
 * @param problem   the problem type of an error answer (after https://profile-store.dev/problems/)
 * @param outcome   ok (2xx), failed (refused or "nothing was changed": it did not happen), or unknown (it may have)
 * @param writes    for each profile whose data the request writes, the write's id in the data ({@code w})
 * @param versions  for each profile, the version the answer reports
 * @param moved     the profiles a merge or unmerge answer reports moved
 * @param write     a create's write id (also when no answer came: the profile, if made, holds it)
 * @param expected  for each profile a batch update changes, the version it said it replaces
 * @param opId      a merge's or unmerge's operation id, when an answer gave it (a merge's id; operation-pending's)
 * @param seen      for a read, the write id of the data it was answered
 * @param requestId the request's {@code Request-Id}, which the rows its change writes carry ({@code written_by})
 * @param skipped   the profiles an unmerge answer reports it left where they were (moved by hand or erased since)
 */
record Event(long id, int client, String op, String instance, long start, long end, List<UUID> pids, UUID uid,
        UUID source, Long ifMatch, int status, String problem, String outcome, Map<UUID, String> writes,
        Map<UUID, Long> versions, List<UUID> moved, String write, Map<UUID, Long> expected, UUID opId,
        Map<UUID, String> seen, UUID requestId, List<UUID> skipped) {

    static final String OK = "ok";
    static final String FAILED = "failed";
    static final String UNKNOWN = "unknown";

    boolean ok() {
        return OK.equals(outcome);
    }

    boolean mayHaveHappened() {
        return !FAILED.equals(outcome);
    }

    boolean isChange() {
        return !op.equals("read") && !op.equals("refused");
    }

    boolean unknown() {
        return UNKNOWN.equals(outcome);
    }

    /** The version it said it replaces for this profile: If-Match, or a batch's own for it; null if none. */
    Long replaces(UUID pid) {
        return expected.containsKey(pid) ? expected.get(pid) : pids.contains(pid) ? ifMatch : null;
    }
}
