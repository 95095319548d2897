package io.profilestore.importer;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;

/**
 * The records an import could not take, one NDJSON line each: {@code {"line", "pid"?, "reason"}}, never the record's
 * content. A resumed import first cuts the file back to what its checkpoint covers, so that the records it reads
 * again are not listed twice.
 */
final class RejectsFile implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final FileChannel channel;

    RejectsFile(Path file, long keep) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        if (channel.size() < keep) {
            channel.close();
            throw new IllegalStateException(file + " holds less than its checkpoint says (" + keep + " bytes): it was"
                    + " cut or replaced; restore it, or remove the checkpoint to import from the beginning");
        }
        channel.truncate(keep);
        channel.position(keep);
    }

    /** Appends the rejection; returns the file's size after it. */
    long append(RejectedRecord rejection) throws IOException {
        var line = new LinkedHashMap<String, Object>();
        line.put("line", rejection.position());
        if (rejection.pid() != null) {
            line.put("pid", rejection.pid());
        }
        line.put("reason", rejection.reason());
        channel.write(ByteBuffer.wrap((JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8)));
        return channel.position();
    }

    /** What was appended is on the disk before a checkpoint claims it. */
    void force() throws IOException {
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
