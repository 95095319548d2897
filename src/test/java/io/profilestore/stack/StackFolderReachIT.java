package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A stack folder inside a folder the stack's service user cannot enter: started as root, the stack runs its
 * services as that user, who then cannot reach their own folders. The start must say so before any service
 * starts, naming the folder in the way, not fail later pointing at a log the service never got to write.
 */
class StackFolderReachIT {

    private final String user = "pstest" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 24), 36);
    private Path outer;
    private Path closed;

    @BeforeEach
    void aFolderOnlyRootMayEnter() throws IOException {
        assumeTrue(Processes.isRoot(), "the stack runs services as another user only when started as root");
        outer = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-reach-test-");
        Files.setPosixFilePermissions(outer, PosixFilePermissions.fromString("rwxr-xr-x")); // made rwx------
        closed = Files.createDirectory(outer.resolve("closed"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
    }

    @AfterEach
    void removeTheUserAndTheFolder() {
        if (outer != null) {
            Processes.run(Duration.ofSeconds(30), "rm", "-rf", outer.toString());
        }
        try {
            Processes.run(Duration.ofSeconds(10), "userdel", user);
        } catch (IllegalStateException neverCreated) {
            // the start refused before it needed the user
        }
    }

    @Test
    void aStackFolderTheServiceUserCannotReachIsRefusedUpFrontNamingTheFolderInTheWay() {
        Path stackDir = closed.resolve("stack");
        var settings = StackSettings.from(Map.of("PROFILE_STORE_STACK_USER", user,
                "PROFILE_STORE_STACK_DIR", stackDir.toString(),
                "PROFILE_STORE_POSTGRES_PORT", Integer.toString(FreePorts.next())));

        assertThatThrownBy(() -> LocalStack.start(settings, Set.of(Service.POSTGRES)).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("service user " + user + " cannot enter " + closed)
                .hasMessageContaining(stackDir.toString());
        assertThat(stackDir.resolve("postgres")).as("no service was started in the stack folder").doesNotExist();
    }
}
