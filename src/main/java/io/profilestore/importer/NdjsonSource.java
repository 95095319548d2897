package io.profilestore.importer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A file of NDJSON records, one a line, in UTF-8; a record's position is its line number, and blank lines hold none.
 * A line that is not UTF-8 is handed on without its text, to be rejected.
 */
public class NdjsonSource implements ImportSource {

    /** The file's beginning that its identity is read from: enough to tell two exports apart, quick to read. */
    private static final int HEAD = 1 << 20;

    private final Path file;
    private Lines reader;

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
        reader = new Lines(Files.newInputStream(file));
        for (long skipped = 0; skipped < position && reader.next() != null; skipped++) {
            // the lines a checkpoint says are done
        }
        return new Iterator<>() {
            long line = position;
            Raw next = advance();

            private Raw advance() {
                try {
                    for (byte[] bytes = reader.next(); bytes != null; bytes = reader.next()) {
                        line++;
                        String text = utf8(bytes);
                        if (text == null || !text.isBlank()) {
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

    /**
     * A line's text, or null when its bytes are not UTF-8 (a legacy export's line in Windows-1251, say): that record is
     * rejected and the import goes on, where a reader that decodes the whole file would stop at it on every run.
     */
    private static String utf8(byte[] line) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** The file's lines as bytes, without their end ({@code \n} or {@code \r\n}). */
    private static final class Lines implements AutoCloseable {
        private final InputStream in;
        private final byte[] buffer = new byte[1 << 16];
        private int at;
        private int end;
        private byte[] line = new byte[1024];

        Lines(InputStream in) {
            this.in = in;
        }

        /** The next line, or null at the end of the file. */
        byte[] next() throws IOException {
            int length = 0;
            boolean any = false;
            while (true) {
                if (at == end) {
                    end = in.read(buffer);
                    at = 0;
                    if (end <= 0) {
                        end = 0;
                        return any ? trimmed(length) : null;
                    }
                }
                any = true;
                int newline = at;
                while (newline < end && buffer[newline] != '\n') {
                    newline++;
                }
                int chunk = newline - at;
                if (length + chunk > line.length) {
                    line = Arrays.copyOf(line, Math.max(line.length * 2, length + chunk));
                }
                System.arraycopy(buffer, at, line, length, chunk);
                length += chunk;
                at = newline;
                if (newline < end) {
                    at++; // past the \n
                    return trimmed(length);
                }
            }
        }

        private byte[] trimmed(int length) {
            return Arrays.copyOf(line, length > 0 && line[length - 1] == '\r' ? length - 1 : length);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    @Override
    public void close() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
