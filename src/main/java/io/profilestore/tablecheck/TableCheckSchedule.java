package io.profilestore.tablecheck;

import io.dropwizard.lifecycle.Managed;
import io.profilestore.change.OneAtATime;
import io.profilestore.support.DaemonScheduler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the table check on a schedule, on one API instance at a time, and logs what it found and repaired
 * (counts and pids only: nothing personal).
 */
public class TableCheckSchedule implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(TableCheckSchedule.class);

    private final TableCheck check;
    private final OneAtATime exclusive;
    private final Duration every;
    private ScheduledExecutorService scheduler;

    public TableCheckSchedule(TableCheck check, OneAtATime exclusive, Duration every) {
        this.check = check;
        this.exclusive = exclusive;
        this.every = every;
    }

    @Override
    public void start() {
        if (every.isZero()) {
            return;
        }
        scheduler = DaemonScheduler.named("table-check");
        // the first run soon after start (instances may restart more often than the interval), then on the interval
        long first = Math.min(every.toMillis(), Duration.ofMinutes(10).toMillis());
        scheduler.scheduleWithFixedDelay(this::runOnce, first, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() throws InterruptedException {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    void runOnce() {
        try {
            var text = new StringWriter();
            boolean ran = exclusive.ifFree(TableCheck.JOB, () -> {
                var report = check.run(true, new PrintWriter(text));
                if (report.violations() > 0) {
                    LOG.warn("the table check found disagreements:\n{}", text);
                } else {
                    LOG.info("the table check found the tables in agreement ({} profiles)", report.profiles());
                }
            });
            if (!ran) {
                LOG.debug("the table check runs on another instance now");
            }
        } catch (RuntimeException e) {
            LOG.warn("the table check failed this time ({}); it runs again in {}", e.getClass().getSimpleName(), every);
        }
    }
}
