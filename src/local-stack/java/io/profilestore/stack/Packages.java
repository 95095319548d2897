package io.profilestore.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Installs an operating-system package the local stack or the tests need, when it may: as root on a Debian-like system. */
public final class Packages {

    private static final Logger LOG = LoggerFactory.getLogger(Packages.class);

    /** The locks apt and dpkg take: fcntl locks, listed in /proc/locks while held. */
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

    public static void install(String what, String debianPackage) {
        install(what, debianPackage, LOG::info);
    }

    /** Installs the package with apt, telling {@code say} what it does and what it waits for. */
    public static synchronized void install(String what, String debianPackage, Consumer<String> say) {
        if (!Processes.isRoot() || !aptAvailable()) {
            throw new IllegalStateException(what + " is not installed. Install it (Debian or Ubuntu: sudo apt-get "
                    + "install " + debianPackage + "), or run the stack in Docker (PROFILE_STORE_STACK=docker) or "
                    + "against your own services (PROFILE_STORE_STACK=external); see docs/operations/local-stack.md, "
                    + "Modes.");
        }
        say.accept("installing " + what + " with apt-get (package " + debianPackage + ")");
        if (!updated) {
            apt(say, "update", "-qq");
            updated = true;
        }
        apt(say, "install", "-y", "-qq", "--no-install-recommends", debianPackage);
    }

    /**
     * Runs apt-get once no other apt or dpkg holds its locks: apt-get alone fails at once on a held lock
     * (unattended upgrades, an install of ours in another process). The Lock::Timeout makes apt-get itself wait
     * for dpkg's locks should another apt take them between our look and its own.
     */
    static void apt(Consumer<String> say, String... arguments) {
        awaitAptLocks(say, APT_LOCK_WAIT);
        var command = new ArrayList<>(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get",
                "-o", "DPkg::Lock::Timeout=" + APT_LOCK_WAIT.toSeconds()));
        command.addAll(List.of(arguments));
        Processes.run(APT_LOCK_WAIT.plusMinutes(10), command.toArray(String[]::new));
    }

    /**
     * Waits until no process holds one of apt's locks, saying so when it has to wait and every 30 seconds after;
     * fails after {@code atMost}. It only looks (in /proc/locks): taking a lock to see whether it is free would
     * make an apt that starts at that moment fail.
     */
    static void awaitAptLocks(Consumer<String> say, Duration atMost) {
        var lastWord = new AtomicLong(System.nanoTime() - Duration.ofMinutes(1).toNanos());
        try {
            Awaitility.await("apt's locks to be free")
                    .atMost(atMost)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        var held = heldLock();
                        if (held.isPresent() && System.nanoTime() - lastWord.get() >= Duration.ofSeconds(30).toNanos()) {
                            lastWord.set(System.nanoTime());
                            say.accept("waiting for apt's lock " + held.get() + ": another apt-get or dpkg is running"
                                    + " (waiting up to " + atMost.toMinutes() + " min)");
                        }
                        return held.isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("another apt or dpkg has held " + heldLock().map(Path::toString)
                    .orElse("apt's lock") + " for over " + atMost + "; let it finish (ps -C apt-get,apt,dpkg) and run "
                    + "again", e);
        }
    }

    /** The first of apt's locks that some process holds now, read from the kernel's list of file locks. */
    static Optional<Path> heldLock() {
        List<String> locks;
        try {
            locks = Files.readAllLines(Path.of("/proc/locks"));
        } catch (IOException e) {
            return Optional.empty();
        }
        for (Path lock : APT_LOCKS) {
            var id = FileId.of(lock);
            if (id.isPresent() && locks.stream().anyMatch(line -> id.get().isNamedIn(line))) {
                return Optional.of(lock);
            }
        }
        return Optional.empty();
    }

    /** A file as /proc/locks names it: device {@code major:minor} in hexadecimal, and inode. */
    private record FileId(long major, long minor, long inode) {
        static Optional<FileId> of(Path file) {
            try {
                long device = (Long) Files.getAttribute(file, "unix:dev");
                long inode = (Long) Files.getAttribute(file, "unix:ino");
                // glibc's encoding of dev_t (gnu_dev_major, gnu_dev_minor)
                long major = ((device >>> 8) & 0xfff) | ((device >>> 32) & ~0xfffL);
                long minor = (device & 0xff) | ((device >>> 12) & ~0xffL);
                return Optional.of(new FileId(major, minor, inode));
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        /** A line of /proc/locks: {@code 1: POSIX  ADVISORY  WRITE 5183 08:01:1234 0 EOF}. */
        boolean isNamedIn(String line) {
            var fields = line.trim().split("\\s+");
            for (String field : fields) {
                var parts = field.split(":");
                if (parts.length == 3) {
                    try {
                        return Long.parseLong(parts[0], 16) == major && Long.parseLong(parts[1], 16) == minor
                                && Long.parseLong(parts[2]) == inode;
                    } catch (NumberFormatException e) {
                        return false;
                    }
                }
            }
            return false;
        }
    }
}
