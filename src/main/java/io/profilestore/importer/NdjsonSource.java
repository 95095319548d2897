package io.profilestore.importer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** A file of NDJSON records, one a line; a record's position is its line number, and blank lines hold none. */
public class NdjsonSource implements ImportSource {

    /** The file's beginning that its identity is read from: enough to tell two exports apart, quick to read. */
    private static final int HEAD = 1 << 20;

    private final Path file;
    private BufferedReader reader;

    public NdjsonSource(Path file) {
        this.file = file;
    }

    @Override
    public String identity() throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            var digest = MessageDigest.getInstance("SHA-256");
            digest.update(in.readNBytes(HEAD));
            return "ndjson " + file.toAbsolutePath() + ", " + Files.size(file) + " bytes, its first MiB "
                    + HexFormat.of().formatHex(digest.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public long count() throws IOException {
        long lines = 0;
        boolean lastEnded = true;
        var buffer = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int read = in.read(buffer); read > 0; read = in.read(buffer)) {
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        lines++;
                    }
                }
                lastEnded = buffer[read - 1] == '\n';
            }
        }
        return lastEnded ? lines : lines + 1;
    }

    @Override
    public Iterator<Raw> after(long position) throws IOException {
        close();
        reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        for (long skipped = 0; skipped < position && reader.readLine() != null; skipped++) {
            // the lines a checkpoint says are done
        }
        return new Iterator<>() {
            long line = position;
            Raw next = advance();

            private Raw advance() {
                try {
                    for (String text = reader.readLine(); text != null; text = reader.readLine()) {
                        line++;
                        if (!text.isBlank()) {
                            return new Raw(line, text);
                        }
                    }
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException("reading " + file + " after line " + line, e);
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Raw next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                var current = next;
                next = advance();
                return current;
            }
        };
    }

    @Override
    public void close() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
