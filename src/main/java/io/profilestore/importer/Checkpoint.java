package io.profilestore.importer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Where an import stands, in a file of its own beside its rejects: every record up to {@code done} is written (or
 * rejected, its line in the rejects file within {@code rejectsBytes}); records after it may be written too, and are
 * written again, to the same rows, by the run that resumes. The phases after the writes are marked once done, so
 * that a rerun of a finished import writes nothing and only verifies again. Saved whole, to a file moved over the
 * old one: a crash leaves the old checkpoint or the new one, never half of either.
 */
public final class Checkpoint {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).enable(SerializationFeature.INDENT_OUTPUT);

    /** The source's identity (ImportSource.identity): a checkpoint is never applied to another source. */
    public String source;
    /** When the import began: the createdAt of records without one, the same in every run that resumes it. */
    public Instant startedAt;
    /** The last position all of whose records, and all before it, are written or rejected. */
    public long done;
    /** The size of the rejects file that holds the rejections up to {@code done}. */
    public long rejectsBytes;
    /** The phases done: every record written, the index built, the verification passed. */
    public boolean allWritten;
    public boolean indexed;

    public static Checkpoint fresh(String source, Instant startedAt) {
        var checkpoint = new Checkpoint();
        checkpoint.source = source;
        checkpoint.startedAt = startedAt;
        return checkpoint;
    }

    /** The checkpoint in the file, or null when there is none. */
    public static Checkpoint read(Path file) throws IOException {
        return Files.exists(file) ? JSON.readValue(file.toFile(), Checkpoint.class) : null;
    }

    public void save(Path file) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.write(next, JSON.writeValueAsBytes(this));
        try (var channel = FileChannel.open(next, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
