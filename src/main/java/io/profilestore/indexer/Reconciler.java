package io.profilestore.indexer;

import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ProfileRow;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.schema.IndexAliases;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Compares Cassandra and the index, repairs what differs and says what it found. A profile is in order when the
 * index holds it at the version Cassandra has, written with an external version no older than Cassandra's write
 * timestamp. Changes in flight look like drift for a moment, so what differs is looked at again after a grace
 * period, and only what still differs counts and is repaired: from Cassandra, the truth.
 */
public class Reconciler {

    private final ProfileDao profiles;
    private final ProfileDocuments documents;
    private final SearchIndex index;
    private final IndexAliases aliases;
    private final Duration grace;

    public Reconciler(ProfileDao profiles, ProfileDocuments documents, SearchIndex index, IndexAliases aliases,
            Duration grace) {
        this.profiles = profiles;
        this.documents = documents;
        this.index = index;
        this.aliases = aliases;
        this.grace = grace;
    }

    /**
     * What differed, by kind; each list holds pids. {@code unreadable}: profiles Cassandra holds with data that is not
     * JSON, which no index can hold and reconcile cannot repair (named apart, not counted as drift).
     * {@code notRepaired}: drift whose repair Elasticsearch rejected.
     */
    public record Drift(long profiles, long indexed, List<UUID> missing, List<UUID> extra, List<UUID> stale,
            List<UUID> unreadable, boolean repaired, List<UUID> notRepaired) {
        public int total() {
            return missing.size() + extra.size() + stale.size();
        }

        /**
         * What is still wrong after this run: the drift it did not repair (all of it in a dry run), and the
         * unreadable profiles. The command exits 1 when there is any, so that a scheduler sees the failure.
         */
        public int unrepaired() {
            return (repaired ? notRepaired.size() : total()) + unreadable.size();
        }
    }

    /** A millisecond, in the microseconds of fences. */
    private static final long HAND_EDIT_MARGIN = 1_000;

    private record Truth(long version, long written) {
    }

    public Drift run(PrintWriter out, boolean repair) throws Exception {
        var truth = new HashMap<UUID, Truth>();
        for (int slice = 0; slice < Reindexer.SLICES; slice++) {
            for (var row : profiles.scan(slice, Reindexer.SLICES)) {
                truth.put(row.pid(), new Truth(row.version(), row.written()));
            }
        }
        var indexed = index.versions();
        var suspects = new HashSet<UUID>();
        truth.forEach((pid, t) -> {
            if (!inOrder(t, indexed.get(pid))) {
                suspects.add(pid);
            }
        });
        indexed.keySet().stream().filter(pid -> !truth.containsKey(pid)).forEach(suspects::add);
        out.printf("reconcile: %,d profiles in Cassandra, %,d in %s; %d differ at first look%n", truth.size(),
                indexed.size(), index.alias(), suspects.size());

        var drift = new Drift(truth.size(), indexed.size(), List.of(), List.of(), List.of(), List.of(), repair, List.of());
        Map<UUID, SearchIndex.Indexed> rechecked = Map.of();
        if (!suspects.isEmpty()) {
            // a deliberate pause, not a wait on a condition: changes in flight reach the index within it
            TimeUnit.MILLISECONDS.sleep(grace.toMillis());
            rechecked = index.versionsOf(suspects);
            drift = recheck(suspects, profiles.findAll(suspects), rechecked, drift);
            drift = setApartUnreadable(drift);
        }
        out.printf("reconcile: %d missing from the index, %d in the index but not in Cassandra, %d at another version%n",
                drift.missing().size(), drift.extra().size(), drift.stale().size());
        if (!drift.unreadable().isEmpty()) {
            out.printf("reconcile: %d profile(s) whose stored data is unreadable, which no index can hold:%n",
                    drift.unreadable().size());
            drift.unreadable().stream().limit(20).forEach(pid -> out.printf("  unreadable %s%n", pid));
        }
        for (var kind : Map.of("missing", drift.missing(), "extra", drift.extra(), "stale", drift.stale()).entrySet()) {
            kind.getValue().stream().limit(20).forEach(pid -> out.printf("  %s %s%n", kind.getKey(), pid));
        }
        if (repair && drift.total() > 0) {
            var results = repair(drift, rechecked);
            var failed = results.stream().filter(r -> r.outcome() == SearchIndex.Outcome.REJECTED
                    || r.outcome() == SearchIndex.Outcome.STALE).toList();
            out.printf("reconcile: repaired %d profile(s) from Cassandra%n", results.size() - failed.size());
            // the error type only: Elasticsearch's reasons quote the document's values
            failed.forEach(r -> out.printf("  not repaired %s: %s %s%n", r.write().pid(), r.outcome(),
                    r.reason() == null ? "" : r.reason().split(":", 2)[0]));
            // a STALE answer means the index took a newer change meanwhile: nothing is left to repair there
            drift = new Drift(drift.profiles(), drift.indexed(), drift.missing(), drift.extra(), drift.stale(),
                    drift.unreadable(), true, failed.stream().filter(r -> r.outcome() == SearchIndex.Outcome.REJECTED)
                    .map(r -> r.write().pid()).toList());
        }
        out.flush();
        return drift;
    }

    private static boolean inOrder(Truth truth, SearchIndex.Indexed indexed) {
        return indexed != null && indexed.version() == truth.version() && indexed.external() >= truth.written();
    }

    private static Drift recheck(Set<UUID> suspects, Map<UUID, ProfileRow> rows, Map<UUID, SearchIndex.Indexed> indexed,
            Drift first) {
        var missing = new ArrayList<UUID>();
        var extra = new ArrayList<UUID>();
        var stale = new ArrayList<UUID>();
        for (UUID pid : suspects) {
            var row = rows.get(pid);
            var held = indexed.get(pid);
            if (row == null && held != null) {
                extra.add(pid);
            } else if (row != null && held == null) {
                missing.add(pid);
            } else if (row != null && !inOrder(new Truth(row.version(), row.written()), held)) {
                stale.add(pid);
            }
        }
        return new Drift(first.profiles(), first.indexed(), missing, extra, stale, List.of(), first.repaired(), List.of());
    }

    /** Profiles that differ because their data cannot be indexed at all are not drift a repair could mend. */
    private Drift setApartUnreadable(Drift drift) {
        var differing = new ArrayList<UUID>(drift.missing());
        differing.addAll(drift.stale());
        if (differing.isEmpty()) {
            return drift;
        }
        var unreadable = documents.current(differing).unreadable().keySet();
        if (unreadable.isEmpty()) {
            return drift;
        }
        return new Drift(drift.profiles(), drift.indexed(),
                drift.missing().stream().filter(pid -> !unreadable.contains(pid)).toList(), drift.extra(),
                drift.stale().stream().filter(pid -> !unreadable.contains(pid)).toList(), List.copyOf(unreadable),
                drift.repaired(), List.of());
    }

    /**
     * Rewrites from Cassandra. A document someone changed or deleted by hand carries (or left behind, as a
     * tombstone) an external version Elasticsearch counted up by one per hand edit. The rewrite goes a millisecond
     * of fence above the row's write timestamp (and above what the index holds): above any plausible number of
     * hand edits, and still below the fence of any later real change, which is taken from a later moment.
     */
    private List<SearchIndex.Result> repair(Drift drift, Map<UUID, SearchIndex.Indexed> indexed) throws Exception {
        String target = aliases.currentIndex();
        var writes = new ArrayList<SearchIndex.Write>();
        for (UUID pid : drift.extra()) {
            writes.add(new SearchIndex.Remove(target, pid, null));
        }
        var rewrite = new ArrayList<UUID>(drift.missing());
        rewrite.addAll(drift.stale());
        documents.current(rewrite).documents().forEach((pid, d) -> {
            var held = indexed.get(pid);
            long external = Math.max(d.written() + HAND_EDIT_MARGIN, held == null ? 0 : held.external() + 1);
            writes.add(new SearchIndex.Put(target, pid, d.document(), external));
        });
        return index.bulk(writes);
    }
}
