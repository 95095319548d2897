package io.profilestore.support;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The single-thread schedulers of background work: their thread is named, and a daemon (it never holds the JVM up). */
public final class DaemonScheduler {

    private DaemonScheduler() {
    }

    public static ScheduledExecutorService named(String threadName) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            var thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }
}
