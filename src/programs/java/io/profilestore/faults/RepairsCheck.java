package io.profilestore.faults;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What the first check-tables pass after the faults found, each finding explained by the history or counted as a
 * violation. The tables can disagree only where a write landed late: a holder that lost its lease (a paused or
 * cut-off writer) wrote rows a newer change did not overwrite, and its request's answer said the outcome is unknown.
 * So a finding about a profile (a link, a user row it names, its place under its root) is explained by an unknown
 * answer that wrote that profile (named it, or moved it, by its answer or the journal); a master that is not its
 * tree's root by an unknown merge or unmerge of that user. Any other finding is a violation.
 */
final class RepairsCheck {

    private static final Pattern PROFILE = Pattern.compile("profile ([0-9a-f-]{36})");
    private static final Pattern USER = Pattern.compile("^master wrong: user ([0-9a-f-]{36})");

    private RepairsCheck() {
    }

    /** Adds a violation per finding the history does not explain; returns how many it explains. */
    static long explain(List<String> findings, List<Event> history, UnknownOutcomes.Resolution resolved,
            List<String> violations) {
        Set<UUID> unknownPids = new HashSet<>();
        Set<UUID> unknownUsers = new HashSet<>();
        for (var event : history) {
            if (!event.unknown()) {
                continue;
            }
            unknownPids.addAll(event.pids());
            unknownPids.addAll(event.moved());
            unknownPids.addAll(event.expected().keySet());
            var operation = resolved.operationOf().get(event.id());
            if (operation != null) {
                unknownPids.addAll(operation.versions().keySet()); // what the journal says it moved
                unknownUsers.add(operation.target());
                unknownUsers.addAll(operation.sources());
            } else if (event.op().equals("merge") || event.op().equals("unmerge")) {
                unknownUsers.add(event.uid());
                unknownUsers.add(event.source());
            }
        }
        long explained = 0;
        for (var finding : findings) {
            boolean byHistory;
            var user = USER.matcher(finding);
            if (user.find()) {
                byHistory = unknownUsers.contains(UUID.fromString(user.group(1)));
            } else if (finding.startsWith("missing link") || finding.startsWith("stray link")
                    || finding.startsWith("missing user") || finding.startsWith("away from root")) {
                var pid = PROFILE.matcher(finding);
                byHistory = pid.find() && unknownPids.contains(UUID.fromString(pid.group(1)));
            } else {
                byHistory = false; // a broken chain, a parent the journal lacks, a tree over the limit: never a late write
            }
            if (byHistory) {
                explained++;
            } else {
                violations.add("check-tables found " + finding + ": no answer of the history says a write to it may have"
                        + " landed late");
            }
        }
        return explained;
    }
}
