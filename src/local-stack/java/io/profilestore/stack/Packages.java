package io.profilestore.stack;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Installs an operating-system package the local stack or the tests need, when it may: as root on a Debian-like system. */
public final class Packages {

    private static final Logger LOG = LoggerFactory.getLogger(Packages.class);

    /** The locks apt and dpkg take (fcntl locks, which Java's file locks are too on Linux). */
    static final List<Path> APT_LOCKS = List.of(Path.of("/var/lib/dpkg/lock-frontend"), Path.of("/var/lib/dpkg/lock"),
            Path.of("/var/lib/apt/lists/lock"));

    /** How long an install waits for another apt to finish (unattended upgrades can take minutes). */
    static final Duration APT_LOCK_WAIT = Duration.ofMinutes(10);

    private static boolean updated;

    private Packages() {
    }

    static boolean aptAvailable() {
        return Files.isExecutable(Path.of("/usr/bin/apt-get"));
    }

    public static synchronized void install(String what, String debianPackage) {
        if (!Processes.isRoot() || !aptAvailable()) {
            throw new IllegalStateException(what + " is not installed. Install it (Debian or Ubuntu: sudo apt-get "
                    + "install " + debianPackage + "; macOS: brew install " + what.toLowerCase() + "), or run the "
                    + "stack in Docker (PROFILE_STORE_STACK=docker) or against your own services "
                    + "(PROFILE_STORE_STACK=external); see the README.");
        }
        LOG.info("installing {} with apt-get (package {})", what, debianPackage);
        if (!updated) {
            apt(LOG::info, "update", "-qq");
            updated = true;
        }
        apt(LOG::info, "install", "-y", "-qq", "--no-install-recommends", debianPackage);
    }

    /**
     * Runs apt-get once no other apt or dpkg holds its locks. apt-get alone would fail at once on a held lock
     * (unattended upgrades, a second install of ours in another process); the Lock::Timeout covers the moment
     * between our look and apt-get's own.
     */
    static void apt(Consumer<String> say, String... arguments) {
        awaitAptLocks(say, APT_LOCK_WAIT);
        var command = new ArrayList<>(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get",
                "-o", "DPkg::Lock::Timeout=" + APT_LOCK_WAIT.toSeconds()));
        command.addAll(List.of(arguments));
        Processes.run(APT_LOCK_WAIT.plusMinutes(10), command.toArray(String[]::new));
    }

    /**
     * Waits until none of apt's locks is held by another process, saying so when it has to wait and every 30
     * seconds after; fails after {@code atMost}.
     */
    static void awaitAptLocks(Consumer<String> say, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        long nextWord = System.nanoTime();
        for (Path lock = heldLock(); lock != null; lock = heldLock()) {
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new IllegalStateException("another apt or dpkg has held " + lock + " for over " + atMost
                        + "; let it finish (ps -C apt-get,apt,dpkg) and run again");
            }
            if (now - nextWord >= 0) {
                say.accept("waiting for apt's lock " + lock + ": another apt-get or dpkg is running (waiting up to "
                        + atMost.toMinutes() + " min)");
                nextWord = now + Duration.ofSeconds(30).toNanos();
            }
            try {
                Thread.sleep(500); // polling a lock that another process holds: nothing to be notified by
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for apt's lock", e);
            }
        }
    }

    /** The first of apt's locks that another process holds now, or null. */
    private static Path heldLock() {
        for (Path lock : APT_LOCKS) {
            if (!Files.exists(lock)) {
                continue;
            }
            try (var channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
                FileLock mine = channel.tryLock();
                if (mine == null) {
                    return lock;
                }
                mine.release();
            } catch (IOException e) {
                LOG.debug("cannot look at {}: {}", lock, e.getMessage());
            }
        }
        return null;
    }
}
