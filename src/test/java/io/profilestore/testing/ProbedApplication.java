package io.profilestore.testing;

import io.profilestore.ProfileStoreApplication;
import io.profilestore.change.WritePathProbe;

/** The application with a {@link PausingProbe} in its write path, for in-process concurrency tests. */
public class ProbedApplication extends ProfileStoreApplication {

    public static final PausingProbe PROBE = new PausingProbe();

    @Override
    protected WritePathProbe writePathProbe() {
        return PROBE;
    }
}
