package io.profilestore.indexer;

import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ProfileRow;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.postgres.ReindexProgress;
import io.profilestore.progress.Progress;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.schema.IndexAliases;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the next generation of the index from a full Cassandra scan and moves the alias to it without a
 * moment of downtime or a lost change:
 *
 * <ol>
 *   <li>create {@code <alias>-v<N+1>} behind {@code <alias>-next}; from then on the indexer writes every change to
 *   both generations (it looks up its targets for each batch);</li>
 *   <li>copy Cassandra into it slice by slice of the token ring, with external versions, so a copy older than
 *   what the indexer wrote meanwhile is refused; finished slices are noted in PostgreSQL, and a reindex that
 *   stopped goes on from there;</li>
 *   <li>swap the alias in one atomic step, then drop the old generation.</li>
 * </ol>
 */
public class Reindexer {

    /** Slices of the token ring: the unit of progress a stopped reindex keeps. */
    public static final int SLICES = 64;
    private static final int BULK = 500;

    private final ProfileDao profiles;
    private final ProfileDocuments documents;
    private final SearchIndex index;
    private final IndexAliases aliases;
    private final ReindexProgress progress;
    private final ElasticsearchFactory settings;

    public Reindexer(ProfileDao profiles, ProfileDocuments documents, SearchIndex index, IndexAliases aliases,
            ReindexProgress progress, ElasticsearchFactory settings) {
        this.profiles = profiles;
        this.documents = documents;
        this.index = index;
        this.aliases = aliases;
        this.progress = progress;
        this.settings = settings;
    }

    /** What a reindex did. */
    public record Result(String from, String to, long profiles, long rejected, boolean resumed) {
    }

    /**
     * Runs a reindex to its end, or resumes the one that was running.
     *
     * @param keepOld keep the old generation after the swap (to compare, or to swap back by hand)
     * @param stopAfterSlices stop after this many slices, as if interrupted (for tests of resuming); -1: run through
     */
    public Result run(PrintStream out, boolean keepOld, int stopAfterSlices) throws Exception {
        String from = aliases.currentIndex();
        var next = aliases.nextIndex();
        boolean resumed = next.isPresent();
        String to = next.orElseGet(() -> ElasticsearchSchema.indexName(aliases.alias(),
                ElasticsearchSchema.generation(aliases.alias(), from) + 1));
        if (!resumed) {
            aliases.createNext(to, settings);
            out.printf("reindex: created %s; the indexer now writes every change to %s and %s%n", to, from, to);
        } else {
            out.printf("reindex: resuming %s%n", to);
        }
        var done = progress.done(to);
        long copied = 0;
        long rejected = 0;
        int slicesThisRun = 0;
        try (var shown = new CopyProgress(to, done.size(), Progress.onATerminal(), Progress.LOG_EVERY)) {
            for (int slice = 0; slice < SLICES; slice++) {
                if (done.contains(slice)) {
                    continue;
                }
                if (stopAfterSlices >= 0 && slicesThisRun == stopAfterSlices) {
                    break;
                }
                long inSlice = 0;
                var batch = new ArrayList<ProfileRow>(BULK);
                for (var row : profiles.scan(slice, SLICES)) {
                    batch.add(row);
                    if (batch.size() == BULK) {
                        rejected += copy(batch, to);
                        inSlice += batch.size();
                        batch.clear();
                    }
                }
                rejected += copy(batch, to);
                inSlice += batch.size();
                copied += inSlice;
                progress.finished(to, slice, inSlice);
                done.add(slice);
                slicesThisRun++;
                shown.sliceCopied(done.size(), inSlice);
            }
        }
        if (done.size() < SLICES) {
            out.printf("reindex: stopped after %d slices; run it again to go on%n", slicesThisRun);
            return new Result(from, to, copied, rejected, resumed);
        }
        aliases.refresh(to);
        aliases.swap(from, to);
        out.printf("reindex: alias %s now points to %s%n", aliases.alias(), to);
        if (!keepOld) {
            aliases.deleteIndex(from);
            out.printf("reindex: deleted %s%n", from);
        }
        progress.forget(to);
        if (rejected > 0) {
            out.printf("reindex: %d profile(s) could not be indexed (their stored data is unreadable, or does not fit the"
                    + " mapping)%n", rejected);
        }
        return new Result(from, to, copied, rejected, resumed);
    }

    /** Copies rows into the new generation; returns how many Elasticsearch rejected. */
    private long copy(List<ProfileRow> rows, String target) throws Exception {
        if (rows.isEmpty()) {
            return 0;
        }
        var writes = new ArrayList<SearchIndex.Write>();
        var read = documents.of(rows);
        read.documents().forEach((pid, d) -> writes.add(new SearchIndex.Put(target, pid, d.document(), d.written())));
        long rejected = read.unreadable().size(); // skipped: one unreadable profile must not stop the reindex
        if (writes.isEmpty()) {
            return rejected;
        }
        return rejected + index.bulk(writes).stream().filter(r -> r.outcome() == SearchIndex.Outcome.REJECTED).count();
    }
}
