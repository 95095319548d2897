package io.profilestore.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the index differs from Cassandra: every profile in Cassandra must be in the index at its version, under its
 * user, with the data search shows (its first name); no document may stand for a profile Cassandra does not have.
 */
final class IndexDrift {

    private IndexDrift() {
    }

    static List<String> of(FinalState state) {
        var drift = new ArrayList<String>();
        state.profiles().forEach((pid, profile) -> {
            var document = state.index().get(pid);
            if (document == null) {
                drift.add("profile " + pid + " is not in the index");
            } else if (document.version() != profile.version()) {
                drift.add("profile " + pid + " is at version " + profile.version() + ", its document at " + document.version());
            } else if (!Objects.equals(document.uid(), profile.uid())) {
                drift.add("profile " + pid + " is under " + profile.uid() + ", its document under " + document.uid());
            } else if (!Objects.equals(document.firstName(), profile.firstName())) {
                drift.add("profile " + pid + " holds first name " + profile.firstName() + ", its document "
                        + document.firstName());
            }
        });
        state.index().keySet().stream().filter(pid -> !state.profiles().containsKey(pid))
                .forEach(pid -> drift.add("document " + pid + " stands for no profile"));
        return drift;
    }
}
