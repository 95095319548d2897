package io.profilestore.tablecheck;

import io.profilestore.change.EntitiesLockedException;
import io.profilestore.tablecheck.TableCheckReport.Count;
import io.profilestore.tablecheck.TableCheckReport.Kind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The counts of one run of check-tables, as its passes find and repair. */
final class TableCheckTally {

    private static final Logger LOG = LoggerFactory.getLogger(TableCheckTally.class);

    final boolean repair;
    long users;
    long profiles;
    long links;
    private long leftAlone;
    private final Map<Kind, long[]> counts = new EnumMap<>(Kind.class);
    private final List<String> findings = new ArrayList<>();

    TableCheckTally(boolean repair) {
        this.repair = repair;
    }

    /** A disagreement found; {@code repairOne} repairs it (when repairing), returning whether it did; so does this. */
    boolean found(Kind kind, String what, BooleanSupplier repairOne) {
        boolean repaired = repair && repaired(repairOne);
        var count = counts.computeIfAbsent(kind, k -> new long[2]);
        count[0]++;
        if (repaired) {
            count[1]++;
        }
        findings.add(kind.name().toLowerCase().replace('_', ' ') + ": " + what + (repaired ? " (repaired)" : ""));
        return repaired;
    }

    /** A disagreement nothing here repairs. */
    void found(Kind kind, String what) {
        counts.computeIfAbsent(kind, k -> new long[2])[0]++;
        findings.add(kind.name().toLowerCase().replace('_', ' ') + ": " + what);
        leftAlone++;
    }

    /** Something not looked at now (an interrupted operation on it waits for the recovery). */
    void skipped() {
        leftAlone++;
    }

    TableCheckReport report() {
        var done = new EnumMap<Kind, Count>(Kind.class);
        counts.forEach((kind, count) -> done.put(kind, new Count(count[0], count[1])));
        return new TableCheckReport(users, profiles, links, done, leftAlone, findings);
    }

    /** Runs one repair; whatever keeps it from being done leaves the entity for the next run. */
    private boolean repaired(BooleanSupplier repairOne) {
        try {
            if (repairOne.getAsBoolean()) {
                return true;
            }
        } catch (EntitiesLockedException e) {
            // in use right now: the next run looks again
        } catch (RuntimeException e) {
            LOG.warn("a table repair failed ({}); the next run tries again", e.getClass().getSimpleName());
        }
        leftAlone++;
        return false;
    }
}
