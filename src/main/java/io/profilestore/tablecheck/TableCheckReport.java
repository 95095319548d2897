package io.profilestore.tablecheck;

import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a run of check-tables found and did: for each kind of disagreement how many were found and how many
 * repaired; {@code leftAlone} were changed meanwhile, busy, or could not be repaired; {@code findings} name each one
 * (ids only), for {@code --list}.
 */
public record TableCheckReport(long users, long profiles, long links, Map<Kind, Count> counts, long leftAlone,
        List<String> findings) {

    /** The kinds of disagreement, in the order the report gives them. */
    public enum Kind {
        MASTER_WRONG("masters wrong (a merged user's master is not the root of its chain of parents)", "set right"),
        CHAIN_BROKEN("broken merge chains (a merged user's parent has no row, or the chain goes round)",
                "not repairable here (docs/users.md, \"Checking the users' tables\")"),
        TREE_TOO_LARGE("trees over users.maxMergedUsers (the limit lowered since: no failure)", "left as they are"),
        JOURNAL_DISAGREES("users whose parent is not the merge journal's (applied merges less unmerges)",
                "left as they are"),
        MISSING_LINK("links missing (a profile's user does not list it)", "put back"),
        STRAY_LINK("stray links (a user lists a profile that is not its)", "removed"),
        MISSING_USER("users missing (a profile names a user without a row)", "made"),
        AWAY_FROM_ROOT("profiles away from their root (not under the root of their own user's tree)", "moved there"),
        VERSION_UNRECORDED("profiles whose row is not the newest version of their history (docs/history.md)",
                "recorded"),
        HISTORY_AHEAD("profiles whose history holds a version newer than their row", "left as they are");

        final String label;
        final String verb;

        Kind(String label, String verb) {
            this.label = label;
            this.verb = verb;
        }
    }

    /** One kind of disagreement: how many were found, how many repaired. */
    public record Count(long found, long repaired) {
    }

    public TableCheckReport {
        var all = new EnumMap<Kind, Count>(Kind.class);
        for (var kind : Kind.values()) {
            all.put(kind, counts.getOrDefault(kind, new Count(0, 0)));
        }
        counts = Map.copyOf(all);
        findings = List.copyOf(findings);
    }

    public Count count(Kind kind) {
        return counts.get(kind);
    }

    /** Every disagreement found. */
    public long violations() {
        return counts.values().stream().mapToLong(Count::found).sum();
    }

    /**
     * The disagreements found and not repaired: the tables still disagree there. A tree over the limit is not one:
     * the limit holds for new merges, and one lowered since leaves older trees as they were.
     */
    public long unrepaired() {
        return counts.entrySet().stream().filter(e -> e.getKey() != Kind.TREE_TOO_LARGE)
                .mapToLong(e -> e.getValue().found() - e.getValue().repaired()).sum();
    }

    /** The report as the command and the task print it: a line per kind, then each finding when asked for. */
    void print(PrintWriter out, boolean repair, boolean list) {
        String done = repair ? "" : " (dry run: nothing repaired)";
        out.printf("check-tables: %,d users, %,d profiles and %,d links checked%s%n", users, profiles, links, done);
        for (var kind : Kind.values()) {
            var count = counts.get(kind);
            out.printf("  %s: %d, %d %s%n", kind.label, count.found(), count.repaired(), kind.verb);
        }
        out.printf("  left as they are (changed meanwhile, busy, or not repairable): %d%n", leftAlone);
        if (list) {
            findings.forEach(finding -> out.println("  - " + finding));
        }
        out.flush();
    }
}
