package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Every profile's final user, and every user's, against the history. The rules (docs/users.md, "What merges
 * mean"): a profile is under the root of its home's tree; its home is the user it was created under or last moved
 * to by hand; a user's parent is what the last merge or unmerge of it made it. So: the rows must agree with
 * themselves, each profile's home must be one a create or move that may have come last gave it, and each user's
 * parent one a merge or unmerge of it that may have come last gave it (none: merged into nobody).
 */
final class UsersCheck {

    private UsersCheck() {
    }

    /**
     * @param before the state as the run left it (homes and parents; check-tables changes neither)
     * @param after  the state once check-tables repaired what it found (every profile under its root)
     */
    static void check(List<Event> history, FinalState before, FinalState after, UnknownOutcomes.Resolution resolved,
            List<String> violations) {
        rowsAgree(after, violations);
        homesExplained(history, before, resolved, violations);
        parentsExplained(history, before, resolved, violations);
    }

    /** Each profile under the root of its home's tree, each merged user's master the root of its chain of parents. */
    private static void rowsAgree(FinalState state, List<String> violations) {
        state.profiles().forEach((pid, profile) -> {
            UUID root = state.root(profile.home());
            if (root == null) {
                violations.add("user: profile " + pid + " has own user " + profile.home() + ", which has no row");
            } else if (!root.equals(profile.uid())) {
                violations.add("user: profile " + pid + " is under " + profile.uid() + ", not under " + root
                        + ", the root of its own user " + profile.home());
            }
        });
        state.users().forEach((uid, user) -> {
            if (user.master() == null) {
                if (user.parent() != null) {
                    violations.add("user: " + uid + " has parent " + user.parent() + " and no master");
                }
                return;
            }
            UUID at = uid;
            var seen = new HashSet<UUID>();
            while (at != null && seen.add(at) && state.users().containsKey(at) && state.users().get(at).parent() != null) {
                at = state.users().get(at).parent();
            }
            if (!Objects.equals(at, user.master()) || state.users().get(at) == null || state.users().get(at).master() != null) {
                violations.add("user: " + uid + " has master " + user.master() + ", but its chain of parents ends at " + at);
            }
        });
    }

    /**
     * A profile's home is its create's user, or the target of a move by hand: the one with the newest acknowledged
     * version, or one that may have followed it.
     */
    private static void homesExplained(List<Event> history, FinalState state, UnknownOutcomes.Resolution resolved,
            List<String> violations) {
        var placements = new HashMap<UUID, List<Event>>();
        for (var event : history) {
            if ((event.op().equals("create") || event.op().equals("move")) && resolved.happened(event)) {
                var pids = event.op().equals("create") && event.pids().isEmpty()
                        ? resolved.createdBy().entrySet().stream().filter(e -> e.getValue() == event).map(Map.Entry::getKey).toList()
                        : event.pids();
                pids.forEach(pid -> placements.computeIfAbsent(pid, p -> new ArrayList<>()).add(event));
            }
        }
        state.profiles().forEach((pid, profile) -> {
            var events = placements.getOrDefault(pid, List.of());
            Event newest = null;
            for (var event : events) {
                if (event.ok() && (newest == null || version(event, pid) > version(newest, pid))) {
                    newest = event;
                }
            }
            var allowed = new HashSet<UUID>();
            long from = newest == null ? 0 : version(newest, pid);
            for (var event : events) {
                boolean mayFollow = event == newest || event.ok() ? version(event, pid) >= from
                        : event.ifMatch() == null || event.ifMatch() >= from - 1;
                if (mayFollow) {
                    allowed.add(event.uid());
                }
            }
            if (allowed.contains(null)) {
                return; // a create with no answer under a new user: whose uid nobody was told
            }
            if (!events.isEmpty() && !allowed.contains(profile.home())) {
                violations.add("user: profile " + pid + " belongs to " + profile.home() + "; the last create or move by"
                        + " hand that may have happened gave it " + allowed);
            }
        });
    }

    private static long version(Event event, UUID pid) {
        return event.versions().getOrDefault(pid, event.op().equals("create") ? 1L : 0L);
    }

    /**
     * A user's parent is the target of a merge of it, or none after an unmerge of it: of those that happened, one
     * that no acknowledged merge or unmerge of it began after. (An interrupted one waits for the recovery, and the
     * users it names take no other until then.)
     */
    private static void parentsExplained(List<Event> history, FinalState state, UnknownOutcomes.Resolution resolved,
            List<String> violations) {
        var ofUser = new HashMap<UUID, List<Event>>();
        for (var event : history) {
            if ((event.op().equals("merge") || event.op().equals("unmerge")) && event.source() != null
                    && resolved.happened(event)) {
                ofUser.computeIfAbsent(event.source(), u -> new ArrayList<>()).add(event);
            }
        }
        state.users().forEach((uid, user) -> {
            var events = ofUser.getOrDefault(uid, List.of());
            var allowed = new HashSet<UUID>();
            if (events.isEmpty()) {
                allowed.add(null);
            }
            for (var event : events) {
                boolean last = events.stream().noneMatch(other -> other.ok() && other.start() > event.end());
                if (last) {
                    allowed.add(event.op().equals("merge") ? event.uid() : null);
                }
            }
            if (!allowed.contains(user.parent())) {
                violations.add("user: " + uid + " is merged into " + user.parent() + "; the last merge or unmerge of it"
                        + " that may have happened left it " + (allowed.contains(null) && allowed.size() == 1
                        ? "merged into nobody" : "under one of " + allowed));
            }
        });
    }
}
