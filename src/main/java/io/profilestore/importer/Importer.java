package io.profilestore.importer;

import io.profilestore.cassandra.ImportRows;
import io.profilestore.progress.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The import's first phase: reads the source from its checkpoint on, checks each record, and writes the valid ones
 * with {@link ImportRows}, many at once; a record it cannot take goes to the rejects file and the import goes on.
 * The checkpoint is saved every {@link #SAVE_EVERY}: it moves up to the last record that, with every one before it, is
 * written or rejected, so a run killed at any moment is resumed from there. A write Cassandra refuses is tried again
 * ({@link RetriedWrite}); one that still fails ends the run (its checkpoint saved), to be resumed once Cassandra is
 * back.
 */
public final class Importer {

    /** What this run did. {@code failure}: why it stopped before the end, or null. */
    public record Outcome(long written, long rejected, long done, String failure) {
        public boolean complete() {
            return failure == null;
        }
    }

    static final Duration SAVE_EVERY = Duration.ofSeconds(2);

    private final RecordReader reader;
    private final ImportRows rows;
    private final int parallelism;

    public Importer(RecordReader reader, ImportRows rows, int parallelism) {
        if (parallelism < 1 || parallelism > 4096) {
            throw new IllegalArgumentException("--parallelism is from 1 to 4096, not " + parallelism);
        }
        this.reader = reader;
        this.rows = rows;
        this.parallelism = parallelism;
    }

    public Outcome run(ImportSource source, Checkpoint checkpoint, Path checkpointFile, Path rejectsFile, long total)
            throws Exception {
        var run = new Run(checkpoint, checkpointFile);
        try (var rejects = new RejectsFile(rejectsFile, checkpoint.rejectsBytes);
                var progress = new Progress("import", " records", total, checkpoint.done, Progress.onATerminal())) {
            run.rejects = rejects;
            long lastSave = System.nanoTime();
            for (var records = source.after(checkpoint.done); records.hasNext() && run.failure.get() == null; ) {
                var raw = records.next();
                run.take(raw);
                progress.at(raw.position());
                if (System.nanoTime() - lastSave > SAVE_EVERY.toNanos()) {
                    run.save();
                    lastSave = System.nanoTime();
                }
            }
            run.drain();
            run.save();
        }
        var failure = run.failure.get();
        return new Outcome(run.written.get(), run.rejected, checkpoint.done,
                failure == null ? null : failure.getClass().getSimpleName() + ": " + failure.getMessage());
    }

    /** One run's state: what is in flight, the rejections' places in their file, the checkpoint. */
    private final class Run {
        private final Checkpoint checkpoint;
        private final Path checkpointFile;
        private final Semaphore permits = new Semaphore(parallelism);
        private final ConcurrentSkipListSet<Long> inFlight = new ConcurrentSkipListSet<>();
        /** Of each rejection not yet under the checkpoint: its position and the rejects file's size after it. */
        private final ArrayDeque<long[]> rejections = new ArrayDeque<>();
        private final AtomicLong written = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private RejectsFile rejects;
        private long rejected;
        private volatile long lastRead;

        Run(Checkpoint checkpoint, Path checkpointFile) {
            this.checkpoint = checkpoint;
            this.checkpointFile = checkpointFile;
            this.lastRead = checkpoint.done;
        }

        void take(ImportSource.Raw raw) throws IOException, InterruptedException {
            try {
                var record = reader.read(raw.position(), raw.text());
                permits.acquire();
                inFlight.add(record.position());
                write(record);
            } catch (RejectedRecord rejection) {
                rejections.add(new long[] {rejection.position(), rejects.append(rejection)});
                rejected++;
            }
            lastRead = raw.position();
        }

        private void write(ImportRecord record) {
            RetriedWrite.IMPORT.run(() -> rows.write(record.pid(), record.uid(), record.data(), record.createdAt(),
                            checkpoint.startedAt), () -> failure.get() == null, retried -> { })
                    .whenComplete((ok, error) -> {
                        if (error == null) {
                            written.incrementAndGet();
                            inFlight.remove(record.position());
                        } else {
                            failure.compareAndSet(null, error); // stays in flight: the checkpoint stops below it
                        }
                        permits.release();
                    });
        }

        /** Waits for every write in flight to be confirmed or to fail for good. */
        void drain() throws InterruptedException {
            permits.acquire(parallelism);
            permits.release(parallelism);
        }

        /** The checkpoint moves to the last position below everything in flight; the rejects it covers are on disk. */
        void save() throws IOException {
            long read = lastRead;
            Long lowest = inFlight.isEmpty() ? null : inFlight.first();
            long done = lowest == null ? read : Math.min(read, lowest - 1);
            while (!rejections.isEmpty() && rejections.peekFirst()[0] <= done) {
                checkpoint.rejectsBytes = rejections.pollFirst()[1];
            }
            rejects.force();
            checkpoint.done = Math.max(checkpoint.done, done);
            checkpoint.save(checkpointFile);
        }
    }
}
