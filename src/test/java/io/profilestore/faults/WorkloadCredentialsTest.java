package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.TestAuth;
import org.junit.jupiter.api.Test;

/** The fault suite's workload calls as production does: the platform a machine, merges by a data steward. */
class WorkloadCredentialsTest {

    @Test
    void thePlatformsWorkIsAMachines() {
        assertThat(WorkloadHttp.credentialFor("/v1/profiles/8f0c6a38-0000-4000-8000-000000000001"))
                .isEqualTo(TestAuth.PLATFORM);
        assertThat(WorkloadHttp.credentialFor("/v1/profiles:batchUpdate")).isEqualTo(TestAuth.PLATFORM);
        assertThat(WorkloadHttp.credentialFor("/v1/users/8f0c6a38-0000-4000-8000-000000000002/merges"))
                .as("reading a merge history").isEqualTo(TestAuth.PLATFORM);
    }

    @Test
    void mergesAndUnmergesAreAnEditors() {
        assertThat(WorkloadHttp.credentialFor("/v1/users/8f0c6a38-0000-4000-8000-000000000002/merge"))
                .isEqualTo(TestAuth.EDITOR);
        assertThat(WorkloadHttp.credentialFor("/v1/users/8f0c6a38-0000-4000-8000-000000000002/unmerge"))
                .isEqualTo(TestAuth.EDITOR);
    }
}
