package io.profilestore.testing;

import io.profilestore.ProfileStoreApplication;
import io.profilestore.change.Lease;
import io.profilestore.change.WritePathProbe;
import java.util.Locale;

/**
 * The application as a separate process that freezes the first change reaching the step named by
 * PROFILE_STORE_TEST_HOLD_AT (locked, recorded or written) and says so on its output ({@code HELD <step>
 * <entities>}): the test then kills it, a crash between two steps of a change.
 */
public class HoldingApplication extends ProfileStoreApplication {

    private final String holdAt = System.getenv().getOrDefault("PROFILE_STORE_TEST_HOLD_AT", "").toLowerCase(Locale.ROOT);
    private volatile boolean held;

    public static void main(String[] args) throws Exception {
        new HoldingApplication().run(args);
    }

    @Override
    protected WritePathProbe writePathProbe() {
        return new WritePathProbe() {
            @Override
            public void locked(Lease lease) {
                hold("locked", lease);
            }

            @Override
            public void recorded(Lease lease) {
                hold("recorded", lease);
            }

            @Override
            public void written(Lease lease) {
                hold("written", lease);
            }
        };
    }

    private void hold(String step, Lease lease) {
        synchronized (this) {
            if (held || !step.equals(holdAt)) {
                return;
            }
            held = true;
        }
        System.out.println("HELD " + step + " " + lease.entities());
        System.out.flush();
        try {
            Thread.currentThread().join(); // until the test kills this process
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
