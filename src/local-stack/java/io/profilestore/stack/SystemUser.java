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

    private static synchronized void ensureExists(String user) {
        try {
            Processes.run(Duration.ofSeconds(10), "id", "-u", user);
        } catch (IllegalStateException missing) {
            Processes.run(Duration.ofSeconds(30), "useradd", "--system", "--no-create-home",
                    "--shell", "/usr/sbin/nologin", user);
        }
    }
}
