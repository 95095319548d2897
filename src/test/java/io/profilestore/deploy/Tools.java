package io.profilestore.deploy;

import io.profilestore.stack.Packages;
import io.profilestore.stack.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command-line tools the deployment tests run: node (the schema validation of src/test/manifests, whose
 * packages Maven installs into target/manifests), kubectl (kustomize) and yamllint (installed with apt when
 * missing, as the stack installs PostgreSQL). A missing tool fails the test with what to install: these checks
 * are the point of the tests, so they are never skipped.
 */
final class Tools {

    static final Path VALIDATOR_DIR = Charts.PROJECT.resolve("target/manifests");
    static final Path VALIDATOR = VALIDATOR_DIR.resolve("validate-manifests.mjs");

    record Result(int exitCode, String output) {
    }

    private Tools() {
    }

    static Result run(List<String> command, Path directory) {
        try {
            var process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
            process.getOutputStream().close();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 120 s:\n" + output);
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command.get(0) + " (" + e.getMessage() + "): "
                    + installHint(command.get(0)), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String installHint(String tool) {
        return tool + " is needed on the PATH; Maven's check before the tests says what this machine lacks and how to "
                + "get it (README, Quick start)";
    }

    /** yamllint with these arguments, installed first when it is missing and we may (as root, with apt). */
    static Result yamllint(List<String> arguments) {
        if (Prerequisites.onThePath("yamllint").isEmpty()) {
            Packages.install("yamllint", "yamllint");
        }
        var command = new ArrayList<>(List.of("yamllint"));
        command.addAll(arguments);
        return run(command, Charts.PROJECT);
    }

    /** Validates the manifest files with the schemas of src/test/manifests; returns its report. */
    static Result validate(List<Path> files) {
        if (!Files.isDirectory(VALIDATOR_DIR.resolve("node_modules"))) {
            throw new AssertionError("the validator's packages are not installed in " + VALIDATOR_DIR + ": Maven "
                    + "installs them before the tests (`mvn test-compile` or any later phase, without -DskipTests)");
        }
        var command = new ArrayList<>(List.of("node", VALIDATOR.toString()));
        files.forEach(f -> command.add(f.toString()));
        return run(command, VALIDATOR_DIR);
    }

    /** kubectl kustomize of a folder; fails the test when kustomize refuses it. */
    static String kustomize(Path folder) {
        var result = run(List.of("kubectl", "kustomize", folder.toString()), Charts.PROJECT);
        if (result.exitCode() != 0) {
            throw new AssertionError("kubectl kustomize " + Charts.PROJECT.relativize(folder) + " failed:\n" + result.output());
        }
        return result.output();
    }
}
