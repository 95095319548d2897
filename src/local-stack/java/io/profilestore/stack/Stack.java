package io.profilestore.stack;

/** A running set of backing services. Closing it stops what it started, unless another run still uses it. */
public interface Stack extends AutoCloseable {

    StackMode mode();

    Endpoints endpoints();

    /** One line for a person: where the services run and where their data and logs are. */
    String describe();

    @Override
    void close();

    /** Whether {@link #pause} works here: not on services someone else runs. */
    default boolean canPause() {
        return true;
    }

    /**
     * Freezes a service (SIGSTOP, or {@code docker pause}): it keeps its connections but answers nothing, like
     * a machine that hangs. {@link #resume} lets it go on where it stopped.
     */
    void pause(LocalStack.Service service);

    void resume(LocalStack.Service service);

    /** A service taken down for a test; closing it brings the service back and waits until it is ready. */
    interface Outage extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Takes a service down: its processes stopped (local mode), or its container paused (docker mode, where a
     * restarted container would come back on other ports).
     */
    Outage outage(LocalStack.Service service);

    /** Whether {@link #crash} works here: on local processes only. */
    default boolean canCrash() {
        return false;
    }

    /**
     * Crashes a service: every process of it killed at once (SIGKILL), so nothing is written on the way out (no
     * checkpoint, no last flush); closing the outage starts it again on its data, as after a power cut of its
     * process, and waits until it is ready.
     */
    default Outage crash(LocalStack.Service service) {
        throw new UnsupportedOperationException("a " + mode() + " stack cannot crash " + service
                + ": only the local mode runs its services as processes of this machine");
    }

    /** Starts (or joins) the stack the settings ask for. */
    static Stack start(StackSettings settings) {
        return switch (settings.mode()) {
            case LOCAL -> LocalStack.start(settings, LocalStack.Service.all());
            case DOCKER -> ContainerStack.start(settings);
            case EXTERNAL -> new ExternalStack(settings.externalEndpoints());
        };
    }
}
