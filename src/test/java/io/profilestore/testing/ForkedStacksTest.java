package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.stack.StackSettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ForkedStacksTest {

    static final StackSettings SHARED = StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", "/var/tmp/ci-stack",
            "PROFILE_STORE_CASSANDRA_PORT", "39042", "PROFILE_STORE_RABBITMQ_EPMD_PORT", "34369"));

    @Test
    void theFirstForkUsesTheStackTheEnvironmentNames() {
        assertThat(ForkedStacks.ownSettings(1, SHARED)).isEmpty();
    }

    @Test
    void anotherForkHasAFolderAndPortsOfItsOwnAndSharesTheBinaries() {
        var own = ForkedStacks.ownSettings(3, SHARED);

        assertThat(own).containsEntry("PROFILE_STORE_STACK_DIR", "/var/tmp/ci-stack-fork3")
                .containsEntry("PROFILE_STORE_STACK_DIST_DIR", "/var/tmp/ci-stack/dist")
                .containsEntry("PROFILE_STORE_CASSANDRA_PORT", "39062")
                .containsEntry("PROFILE_STORE_RABBITMQ_EPMD_PORT", "34389")
                .containsKeys(ForkedStacks.PORTS.toArray(String[]::new));
        var values = new HashMap<String, String>(own);
        var seen = StackSettings.from(values);
        assertThat(seen.dir()).hasToString("/var/tmp/ci-stack-fork3");
        assertThat(seen.elasticsearchPort()).isEqualTo(SHARED.elasticsearchPort() + 20);
        assertThat(seen.postgresPort()).isEqualTo(SHARED.postgresPort() + 20);
        assertThat(ForkedStacks.ownSettings(3, seen)).as("set once: a second session changes nothing").isEmpty();
    }
}
