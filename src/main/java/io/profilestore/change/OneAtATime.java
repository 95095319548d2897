package io.profilestore.change;

/**
 * Runs a job on one instance at a time, however many run the service: the port {@code postgres.ExclusiveRun}
 * implements with an advisory lock.
 */
@FunctionalInterface
public interface OneAtATime {

    /** Runs the body unless another instance runs the job now; says whether it ran. */
    boolean ifFree(String job, Runnable body);
}
