package io.profilestore.stack;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.profilestore.auth.ApiKeys;
import io.profilestore.auth.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The API keys of {@code ./run-local} with authentication on: {@code ./run-local apikey NAME ROLE...} makes a key,
 * prints it once and keeps its hash in {@code <stack folder>/api-keys.yml}, the file a run with
 * {@code PROFILE_STORE_AUTH_ENABLED=true} gives the service. No jar, no configuration file of one's own.
 */
final class LocalKeys {

    static final String FILE = "api-keys.yml";
    /** The key numbers are hashed with for the stack's index: kept with the stack, whose index it made. */
    static final String NUMBER_KEYS_FILE = "number-keys";

    /** The name of the key a run makes for itself to load {@code --demo}'s profiles, never printed. */
    static final String DEMO = "run-local-demo";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Path file;
    private final Path numberKeys;

    LocalKeys(Path stackDir) {
        this.file = stackDir.resolve(FILE);
        this.numberKeys = stackDir.resolve(NUMBER_KEYS_FILE);
    }

    /**
     * The stack's key for numbers in the index ({@code search.numberKeys}), made at random the first time and kept
     * beside the stack's data: the index holds hashes made with it, which another key would not find.
     */
    String numberKeys() throws IOException {
        if (Files.exists(numberKeys)) {
            return Files.readString(numberKeys).strip();
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String keys = "local:" + Base64.getEncoder().encodeToString(key);
        writePrivately(numberKeys, keys);
        return keys;
    }

    Path file() {
        return file;
    }

    /** The keys made so far, none without the file. */
    List<ApiKeys.Entry> entries() throws IOException {
        return read(file);
    }

    /**
     * Makes a key for {@code name} with these roles and keeps its hash, in place of an earlier key of that name.
     *
     * @return the key, which is kept nowhere
     * @throws IllegalArgumentException for a blank name, no role or an unknown one; nothing is written then
     */
    String add(String name, List<String> roles) throws IOException {
        if (name == null || name.isBlank() || !name.equals(name.strip())) {
            throw new IllegalArgumentException("a key needs a name without spaces around it, such as alice");
        }
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("a key needs a role: platform, operator, editor or admin");
        }
        var roleNames = roles.stream().map(Role::of).map(Role::roleName).distinct().toList();
        var generated = ApiKeys.generate();
        var entries = new ArrayList<>(entries().stream().filter(entry -> !entry.name().equals(name)).toList());
        // a key of platform alone is a client system's here (a script standing in for the platform); people's keys
        // hold their roles
        boolean machine = roleNames.equals(List.of(Role.PLATFORM_NAME));
        entries.add(new ApiKeys.Entry(name, generated[1], roleNames, machine ? Boolean.TRUE : null));
        write(file, entries);
        return generated[0];
    }

    /**
     * The keys one run of the service accepts, written to {@code runFile}: these, those of {@code otherFile}
     * (PROFILE_STORE_API_KEYS_FILE, when set) and, when asked, a key of the run's own for loading the demo data.
     */
    RunKeys forRun(Path runFile, String otherFile, boolean demoKey) throws IOException {
        var entries = new ArrayList<>(entries());
        if (otherFile != null && !otherFile.isBlank()) {
            var other = Path.of(otherFile.strip());
            if (!Files.isRegularFile(other)) {
                throw new IllegalStateException("PROFILE_STORE_API_KEYS_FILE names no file: " + other);
            }
            entries.addAll(read(other));
        }
        int given = entries.size();
        String demo = null;
        if (demoKey) {
            var generated = ApiKeys.generate();
            demo = generated[0];
            entries.add(new ApiKeys.Entry(DEMO, generated[1], List.of(Role.PLATFORM_NAME), true));
        }
        write(runFile, entries);
        return new RunKeys(runFile, given, demo);
    }

    /**
     * @param file the keys file the run's service reads
     * @param given how many keys the user made or configured (the run's own not counted)
     * @param demoKey the run's own key for the demo data, or null
     */
    record RunKeys(Path file, int given, String demoKey) {
    }

    private static List<ApiKeys.Entry> read(Path file) throws IOException {
        if (!Files.exists(file) || Files.size(file) == 0) {
            return List.of();
        }
        List<ApiKeys.Entry> entries = YAML.readValue(file.toFile(), new TypeReference<List<ApiKeys.Entry>>() { });
        return entries == null ? List.of() : entries;
    }

    /** Hashes only, but nobody else's to change: the file is the user's alone, written whole and then moved in. */
    private static void write(Path file, List<ApiKeys.Entry> entries) throws IOException {
        writePrivately(file, YAML.writeValueAsString(entries));
    }

    private static void writePrivately(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path written = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(written);
        Files.createFile(written, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(written, text);
        Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
