package io.profilestore.stack;

import java.nio.file.Path;
import java.util.List;

/** One backing service run as processes of this machine, under {@code <stack dir>/<name>}. */
interface LocalService {

    String name();

    /** The pids of this service's processes that are alive now (after a killed run, left-overs to reuse). */
    List<Long> runningPids();

    /** Prepares and starts what is not running; returns once launched, not necessarily ready. */
    void launch();

    /** One probe of readiness: the service answers its protocol. */
    boolean ready();

    /** Whether a launch has failed for good: the process exited and nothing of ours is running. */
    boolean failed();

    /** Stops every process of the service, gracefully first. */
    void stop();

    Path log();

    /**
     * Where the service writes while it starts, first written first: a service that fails early may leave its cause
     * in a file before {@link #log()} (a launcher's output), or in no file at all.
     */
    default List<Path> startLogs() {
        return List.of(log());
    }
}
