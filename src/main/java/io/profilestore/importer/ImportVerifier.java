package io.profilestore.importer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.VersionKind;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.progress.Progress;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.UUID;

/**
 * The import's last phase: reads the whole source again and each profile back from Cassandra (QUORUM), and compares
 * them: the profile is there, under the user the source gave it, listed by that user, and its document's SHA-256 is
 * the source's. A profile the service changed since (version above 1, the record's createdAt) is counted apart: its
 * document is someone's newer one. One of another createdAt was the service's before the import, and differs. What
 * differs goes to a file of its own ({@code {"line", "pid", "difference"}}), without content. Each batch's pids are
 * then announced to the change stream, which hears of imported profiles no other way.
 */
public final class ImportVerifier {

    /** The counts of a verification; {@code differences()} is what must be 0. */
    public record Result(long records, long rejected, long equal, long different, long missing, long changedSince) {
        public long differences() {
            return different + missing;
        }
    }

    /** Tells the change stream of the profiles a batch read back; returns once they are sure to be told. */
    @FunctionalInterface
    public interface Announcer {
        void announce(List<UUID> pids) throws Exception;
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH = 500;

    private final RecordReader reader;
    private final ProfileDao profiles;
    private final Announcer announcer;

    /**
     * @param announcer told of every record's pid once it was compared: the import writes no outbox record, and this
     *     is how the change stream hears of its profiles (a rerun, which verifies again, tells again)
     */
    public ImportVerifier(RecordReader reader, ProfileDao profiles, Announcer announcer) {
        this.reader = reader;
        this.profiles = profiles;
        this.announcer = announcer;
    }

    public Result run(ImportSource source, Path differencesFile, long total) throws Exception {
        var counts = new long[6];
        try (var differences = Files.newBufferedWriter(differencesFile, StandardCharsets.UTF_8);
                var progress = new Progress("verify", " records", total, 0, Progress.onATerminal())) {
            var batch = new ArrayList<ImportRecord>(BATCH);
            for (var records = source.after(0); records.hasNext(); ) {
                var raw = records.next();
                counts[0]++;
                try {
                    batch.add(reader.read(raw.position(), raw.text()));
                } catch (RejectedRecord rejection) {
                    counts[1]++;
                }
                if (batch.size() == BATCH) {
                    compare(batch, counts, differences);
                    batch.clear();
                }
                progress.at(raw.position());
            }
            compare(batch, counts, differences);
        }
        return new Result(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
    }

    /** Whether the profile's history ends in an erase or a purge by the service (the import writes neither). */
    private boolean erasedSince(ImportRecord record) {
        return profiles.newestVersion(record.pid())
                .filter(version -> version.kind() == VersionKind.ERASED || version.kind() == VersionKind.PURGED).isPresent();
    }

    private void compare(List<ImportRecord> batch, long[] counts, BufferedWriter differences) throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        check(batch, counts, differences);
        announcer.announce(batch.stream().map(ImportRecord::pid).toList());
    }

    private void check(List<ImportRecord> batch, long[] counts, BufferedWriter differences) throws IOException {
        var stored = profiles.findAll(batch.stream().map(ImportRecord::pid).toList());
        var listed = profiles.existing(batch.stream().map(r -> new Link(r.uid(), r.pid())).toList());
        for (var record : batch) {
            ProfileRow row = stored.get(record.pid());
            String difference;
            if (row == null && erasedSince(record)) {
                counts[5]++; // the service erased it since
                continue;
            } else if (row == null) {
                difference = "missing";
                counts[4]++;
            } else if (row.createdAt().toEpochMilli() != record.createdAt().toEpochMilli()) {
                // the service's changes keep a profile's createdAt: another one means the profile was there before
                // the import, whose record lost to it (written at time 1) and is not in the tables
                difference = "the service had a profile at this pid before the import; the record was not written";
                counts[3]++;
            } else if (row.version() > 1) {
                counts[5]++;
                continue;
            } else if (!row.uid().equals(record.uid())) {
                difference = "under another user";
                counts[3]++;
            } else if (!RecordReader.sha256(row.data()).equals(RecordReader.sha256(record.data()))) {
                difference = "another document (its SHA-256 differs from the source's)";
                counts[3]++;
            } else if (!listed.contains(new Link(record.uid(), record.pid()))) {
                difference = "not in its user's list of profiles";
                counts[3]++;
            } else {
                counts[2]++;
                continue;
            }
            var line = new LinkedHashMap<String, Object>();
            line.put("line", record.position());
            line.put("pid", record.pid().toString());
            line.put("difference", difference);
            differences.write(JSON.writeValueAsString(line));
            differences.newLine();
        }
    }
}
