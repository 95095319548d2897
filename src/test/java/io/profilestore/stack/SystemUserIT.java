package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stack's service user on a machine that has never seen it: whatever a service does first with it (hand its
 * folders over, or run a program as it), the user is there. A fresh machine once failed on exactly this: the
 * folders were handed to a user that only a later step created.
 */
class SystemUserIT {

    private final String user = "pstest" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 24), 36);
    private Path dir;

    @BeforeEach
    void rootAndAFolder() throws IOException {
        assumeTrue(Processes.isRoot(), "the stack runs services as another user only when started as root");
        assertThat(exists(user)).as("the user %s must not exist before the test", user).isFalse();
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-user-test-");
        Files.writeString(dir.resolve("file"), "x");
    }

    @AfterEach
    void removeTheUserAndTheFolder() throws IOException {
        if (dir != null) {
            Processes.run(Duration.ofSeconds(30), "rm", "-rf", dir.toString());
        }
        if (exists(user)) {
            Processes.run(Duration.ofSeconds(30), "userdel", user);
        }
    }

    @Test
    void foldersHandedToAUserThatDoesNotExistYetBelongToItAfterwards() throws IOException {
        SystemUser.handOver(settings(), dir);

        assertThat(exists(user)).as("the user was created").isTrue();
        assertThat(Files.getOwner(dir.resolve("file")).getName()).isEqualTo(user);
        assertThat(Files.getOwner(dir).getName()).isEqualTo(user);
    }

    @Test
    void aProgramRunAsAUserThatDoesNotExistYetRunsAsIt() {
        var command = new ArrayList<>(SystemUser.runAs(settings()));
        command.addAll(List.of("id", "-un"));

        String output = Processes.run(Duration.ofSeconds(30), command.toArray(String[]::new));

        assertThat(output.trim()).isEqualTo(user);
    }

    private StackSettings settings() {
        return StackSettings.from(Map.of("PROFILE_STORE_STACK_USER", user, "PROFILE_STORE_STACK_DIR", dir.toString()));
    }

    private static boolean exists(String user) {
        try {
            Processes.run(Duration.ofSeconds(10), "id", "-u", user);
            return true;
        } catch (IllegalStateException missing) {
            return false;
        }
    }
}
