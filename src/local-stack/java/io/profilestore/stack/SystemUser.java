package io.profilestore.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Elasticsearch and PostgreSQL refuse to run as root. Started as root, the stack runs them as a system user of
 * its own, created when missing, and hands their folders to it.
 */
final class SystemUser {

    private SystemUser() {
    }

    /**
     * The command prefix that runs a program as the service user (nothing when we are not root). setpriv, not
     * runuser: it executes the program in its own place, so no parent process stays around that would stop
     * itself when the tests freeze the service (SIGSTOP) and never come back.
     */
    static List<String> runAs(StackSettings settings) {
        if (!Processes.isRoot()) {
            return List.of();
        }
        ensureExists(settings.serviceUser());
        return List.of("setpriv", "--reuid=" + settings.serviceUser(), "--regid=" + settings.serviceUser(),
                "--init-groups", "--");
    }

    /** Gives the folders to the service user, creating the user first when this machine has never seen it. */
    static void handOver(StackSettings settings, Path... paths) {
        if (!Processes.isRoot()) {
            return;
        }
        ensureExists(settings.serviceUser());
        var command = new ArrayList<>(List.of("chown", "-R", settings.serviceUser() + ":"));
        for (Path path : paths) {
            command.add(path.toString());
        }
        Processes.run(Duration.ofMinutes(2), command.toArray(String[]::new));
    }

    /**
     * Fails unless the service user can enter the stack folder: its services run as that user and write under it.
     * A folder above it that only root may enter would otherwise fail each service at its first write, in a log of
     * its own, after the start has waited for it. Checked from the top down, to name the first folder in the way.
     */
    static void ensureCanEnter(StackSettings settings, Path folder) {
        if (!Processes.isRoot()) {
            return;
        }
        ensureExists(settings.serviceUser());
        var path = folder.toAbsolutePath().normalize();
        for (int depth = 1; depth <= path.getNameCount(); depth++) {
            var above = path.getRoot().resolve(path.subpath(0, depth));
            var command = new ArrayList<>(runAs(settings));
            command.addAll(List.of("test", "-x", above.toString()));
            try {
                Processes.run(Duration.ofSeconds(10), command.toArray(String[]::new));
            } catch (IllegalStateException cannot) {
                throw new IllegalStateException("the stack's service user " + settings.serviceUser()
                        + " cannot enter " + above + ", so its services could not reach the stack folder " + path
                        + ": let it in (chmod o+x " + above + "), or choose a stack folder elsewhere with"
                        + " PROFILE_STORE_STACK_DIR", cannot);
            }
        }
    }

    private static synchronized void ensureExists(String user) {
        try {
            Processes.run(Duration.ofSeconds(10), "id", "-u", user);
        } catch (IllegalStateException missing) {
            try {
                Processes.run(Duration.ofSeconds(30), "useradd", "--system", "--no-create-home",
                        "--shell", "/usr/sbin/nologin", user);
            } catch (IllegalStateException refused) {
                // another process (a second fork of the tests, starting its own stack) may have created it meanwhile
                try {
                    Processes.run(Duration.ofSeconds(10), "id", "-u", user);
                } catch (IllegalStateException stillMissing) {
                    throw refused; // useradd's own words say why
                }
            }
        }
    }
}
