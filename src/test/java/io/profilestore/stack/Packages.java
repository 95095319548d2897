package io.profilestore.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Installs an operating-system package the local stack needs, when it may: as root on a Debian-like system. */
public final class Packages {

    private static final Logger LOG = LoggerFactory.getLogger(Packages.class);
    private static boolean updated;

    private Packages() {
    }

    public static synchronized void install(String what, String debianPackage) {
        if (!Processes.isRoot() || !Files.isExecutable(Path.of("/usr/bin/apt-get"))) {
            throw new IllegalStateException(what + " is not installed. Install it (Debian or Ubuntu: sudo apt-get "
                    + "install " + debianPackage + "; macOS: brew install " + what.toLowerCase() + "), or run the "
                    + "stack in Docker (PROFILE_STORE_STACK=docker) or against your own services "
                    + "(PROFILE_STORE_STACK=external); see the README.");
        }
        LOG.info("installing {} with apt-get (package {})", what, debianPackage);
        if (!updated) {
            Processes.run(Duration.ofMinutes(5), "apt-get", "update", "-qq");
            updated = true;
        }
        Processes.run(Duration.ofMinutes(10), "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y",
                "-qq", "--no-install-recommends", debianPackage);
    }
}
