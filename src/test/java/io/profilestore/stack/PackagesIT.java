package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.profilestore.testing.ChildClasspath;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Installing a package while another apt runs (unattended upgrades, a second run of ours): apt-get alone fails at
 * once on the held lock, which once failed a test here. The stack waits for the lock and says that it waits.
 */
class PackagesIT {

    private static final Path FRONTEND_LOCK = Path.of("/var/lib/dpkg/lock-frontend");

    private Process holder;

    @BeforeEach
    void anotherAptHoldsTheLock() throws IOException {
        assumeTrue(Processes.isRoot() && Packages.aptAvailable(), "the stack installs packages only as root, with apt");
        holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", ChildClasspath.current(), AptLockHolder.class.getName(), FRONTEND_LOCK.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        var output = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        var line = CompletableFuture.supplyAsync(() -> {
            try {
                return output.readLine();
            } catch (IOException e) {
                return e.toString();
            }
        });
        assertThat(line).as("the second process holds apt's lock").succeedsWithin(Duration.ofSeconds(30))
                .isEqualTo("LOCKED");
    }

    @AfterEach
    void letGo() throws Exception {
        if (holder != null) {
            holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aptWaitsForAnotherAptToFinishAndSaysSo() throws Exception {
        List<String> said = new CopyOnWriteArrayList<>();
        // `apt-get check` takes the same lock as an install and changes nothing
        var apt = CompletableFuture.runAsync(() -> Packages.apt(said::add, "check"));

        await("the stack to say that it waits for apt's lock").atMost(Duration.ofSeconds(20)).until(() -> !said.isEmpty());
        assertThat(said.get(0)).contains("waiting for apt's lock " + FRONTEND_LOCK);
        assertThat(apt).as("apt-get waits while the lock is held").isNotDone();

        holder.getOutputStream().close();

        assertThat(apt).as("apt-get runs once the lock is free").succeedsWithin(Duration.ofMinutes(2));
    }

    @Test
    void aLockHeldLongerThanTheWaitFailsNamingTheLock() {
        assertThatThrownBy(() -> Packages.awaitAptLocks(message -> { }, Duration.ofSeconds(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("held " + FRONTEND_LOCK);
    }
}
