package io.profilestore.bench;

import io.profilestore.demo.ProfileGenerator;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The benchmark's profiles: generated from a seed (so profile i is the same document in every run) and loaded
 * once; the pids the service gave them are kept beside the stack's data, in load order, so that a later run finds
 * the same data and knows, for each pid, the document it holds.
 */
final class Dataset {

    final long seed;
    final int size;
    final List<UUID> pids;
    /** Of each profile, what the searches look for: its surname and first name as stored, its phone's digits. */
    final String[] surnames;
    final String[] firstNames;
    final String[] phones;

    private Dataset(long seed, int size, List<UUID> pids) {
        this.seed = seed;
        this.size = size;
        this.pids = pids;
        this.surnames = new String[size];
        this.firstNames = new String[size];
        this.phones = new String[size];
        var generator = generator();
        for (int i = 0; i < size; i++) {
            var data = generator.next();
            surnames[i] = data.path("surname").asText();
            firstNames[i] = data.path("firstName").asText();
            phones[i] = data.path("phones").get(0).asText().replaceAll("\\D", "");
        }
    }

    static Dataset generated(long seed, int size) {
        return new Dataset(seed, size, new ArrayList<>(size));
    }

    /** The documents in order, generated again (a million of them do not need to sit in memory). */
    ProfileGenerator generator() {
        return new ProfileGenerator(seed, 0.1);
    }

    static Path pidFile(Path stackDir, long seed, int size) {
        return stackDir.resolve("bench-pids-seed" + seed + "-" + size + ".bin");
    }

    /** The dataset a previous run loaded into this stack, if any. */
    static Dataset loaded(Path stackDir, long seed, int size) throws IOException {
        Path file = pidFile(stackDir, seed, size);
        if (!Files.exists(file)) {
            return null;
        }
        var pids = new ArrayList<UUID>(size);
        try (var in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            for (int i = 0; i < size; i++) {
                pids.add(new UUID(in.readLong(), in.readLong()));
            }
        }
        return new Dataset(seed, size, pids);
    }

    void save(Path stackDir) throws IOException {
        Path file = pidFile(stackDir, seed, size);
        try (var out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            for (UUID pid : pids) {
                out.writeLong(pid.getMostSignificantBits());
                out.writeLong(pid.getLeastSignificantBits());
            }
        }
    }
}
