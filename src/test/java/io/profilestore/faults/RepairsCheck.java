package io.profilestore.faults;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * What the first check-tables pass after the faults found, each finding explained by the history or counted as a
 * violation. The tables can disagree only where a write landed late: a holder that lost its lease (a paused or
 * partitioned writer) wrote rows a newer change did not overwrite. Its request's answer then said the outcome is
 * unknown. So a finding about a profile is explained by an unknown answer about that profile, one about a user by an
 * unknown merge or unmerge of it; any other finding is a violation.
 */
final class RepairsCheck {

    private static final Pattern ID = Pattern.compile("(profile|user) ([0-9a-f-]{36})");

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
            if (event.uid() != null) {
                unknownUsers.add(event.uid());
            }
            if (event.source() != null) {
                unknownUsers.add(event.source());
            }
            var operation = resolved.operationOf().get(event.id());
            if (operation != null) {
                unknownPids.addAll(operation.versions().keySet()); // what the journal says it moved
            }
        }
        long explained = 0;
        for (var finding : findings) {
            var ids = ID.matcher(finding);
            boolean byHistory = false;
            while (ids.find()) {
                var id = UUID.fromString(ids.group(2));
                byHistory |= ids.group(1).equals("profile") ? unknownPids.contains(id) : unknownUsers.contains(id);
            }
            if (byHistory && !finding.startsWith("chain broken") && !finding.startsWith("journal disagrees")
                    && !finding.startsWith("tree too large")) {
                explained++;
            } else {
                violations.add("check-tables found " + finding + ": no answer of the history says a write to it may have"
                        + " landed late");
            }
        }
        return explained;
    }
}
