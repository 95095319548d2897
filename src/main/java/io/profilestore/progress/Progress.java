package io.profilestore.progress;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How far a long command is (an import, a reindex), with its rate and the time left: a bar redrawn in place on a
 * terminal, a plain line every {@link #LOG_EVERY} in a log (a Job's, a CI's), where a bar would be a thousand lines.
 */
public final class Progress implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Progress.class);
    public static final Duration LOG_EVERY = Duration.ofSeconds(10);

    private final ProgressBar bar;

    /**
     * @param unit what is counted, with its leading space ({@code " records"})
     * @param total how many there are, or -1 when unknown; {@code start} those done before this run
     */
    public Progress(String task, String unit, long total, long start, boolean terminal) {
        this(task, unit, total, start, terminal, LOG_EVERY);
    }

    public Progress(String task, String unit, long total, long start, boolean terminal, Duration logEvery) {
        var builder = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setUnit(unit, 1)
                .showSpeed()
                .setSpeedUnit(ChronoUnit.SECONDS)
                .startsFrom(start, Duration.ZERO)
                .continuousUpdate()
                .setStyle(ProgressBarStyle.ASCII); // no colours, no box-drawing: a log and any terminal show it as is
        if (terminal) {
            builder.setUpdateIntervalMillis(250);
        } else {
            builder.setConsumer(new DelegatingProgressBarConsumer(LOG::info, 120))
                    .setUpdateIntervalMillis((int) logEvery.toMillis());
        }
        bar = builder.build();
    }

    /** The whole run is a terminal's when the standard output is one (not a pipe, a file, a container's log). */
    public static boolean onATerminal() {
        return System.console() != null;
    }

    public void at(long position) {
        bar.stepTo(position);
    }

    /** @param more what else the line says, after the count and its rate */
    public void at(long position, String more) {
        bar.setExtraMessage(", " + more); // the bar writes it right after the rate's unit
        bar.stepTo(position);
    }

    @Override
    public void close() {
        bar.close();
    }
}
