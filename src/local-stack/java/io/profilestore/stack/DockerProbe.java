package io.profilestore.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers. Testcontainers is asked only when there is a sign of one (DOCKER_HOST, a
 * socket, a Testcontainers setting): on machines without any, asking costs seconds and logs errors.
 */
final class DockerProbe {

    private DockerProbe() {
    }

    static boolean available() {
        String home = System.getProperty("user.home", "");
        boolean hint = System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(home, ".docker/run/docker.sock"))
                || Files.exists(Path.of(home, ".testcontainers.properties"));
        if (!hint) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
