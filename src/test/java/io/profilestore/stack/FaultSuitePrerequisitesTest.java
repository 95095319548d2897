package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ./faults/run} checks (and installs) before its stack starts: the full run partitions, so it needs
 * nftables, root and cgroup v2 beside what the stack needs; the quick run does not. A full run on a fresh machine
 * once stopped at its first partition, seven minutes in, for want of nft. No backing service: nothing is installed.
 */
class FaultSuitePrerequisitesTest {

    @TempDir
    Path empty;

    private StackSettings settings() {
        return StackSettings.from(Map.of("PROFILE_STORE_STACK", "local", "PROFILE_STORE_STACK_DIR",
                empty.resolve("stack").toString(), "PATH", empty.toString()));
    }

    private static List<String> named(List<Prerequisites.Finding> findings) {
        return findings.stream().map(Prerequisites.Finding::what).toList();
    }

    @Test
    void aRunThatPartitionsChecksNftablesRootAndCgroupsBeforeItStarts() {
        var check = new Prerequisites(settings(), true, true);

        var findings = check.forFaultSuite(true);

        assertThat(named(findings)).contains("nftables", "root", "cgroup v2").containsAll(named(check.forStack()));
        assertThat(findings).filteredOn(f -> f.what().equals("nftables")).singleElement()
                .satisfies(f -> assertThat(f.present() || f.toInstall() != null)
                        .as("as root with apt, nftables is there or installed before the run: " + f).isTrue());
    }

    @Test
    void theQuickRunPartitionsNothingAndNeedsWhatTheStackNeeds() {
        var check = new Prerequisites(settings(), true, true);

        assertThat(named(check.forFaultSuite(false))).isEqualTo(named(check.forStack()));
    }

    @Test
    void notAsRootARunThatPartitionsIsToldSoBeforeAnythingStarts() {
        var check = new Prerequisites(settings(), false, false);

        assertThat(check.forFaultSuite(true)).filteredOn(f -> f.what().equals("root")).singleElement()
                .satisfies(f -> {
                    assertThat(f.present()).isFalse();
                    assertThat(f.detail()).contains("--quick");
                });
    }
}
