package io.profilestore.indexer;

import io.profilestore.progress.Progress;
import java.time.Duration;

/**
 * How far a reindex's copy is: slices of the token ring done (the unit the time left is reckoned in), profiles copied
 * and their rate. Shown as import's is: a bar redrawn in place on a terminal, a plain line now and then in a log.
 */
final class CopyProgress implements AutoCloseable {

    private final Progress progress;
    private final long started = System.nanoTime();
    private long copied;

    CopyProgress(String index, int slicesDone, boolean terminal, Duration logEvery) {
        progress = new Progress("reindex " + index, " slices", Reindexer.SLICES, slicesDone, terminal, logEvery);
    }

    void sliceCopied(int slicesDone, long profiles) {
        copied += profiles;
        double seconds = Math.max(0.001, (System.nanoTime() - started) / 1e9);
        progress.at(slicesDone, String.format("%,d profiles, %,.0f profiles/s", copied, copied / seconds));
    }

    @Override
    public void close() {
        progress.close();
    }
}
