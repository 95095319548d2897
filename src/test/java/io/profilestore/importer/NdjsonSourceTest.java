package io.profilestore.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An NDJSON file read line by line: a line that is not UTF-8 is handed on as such, and the lines after it are read. */
class NdjsonSourceTest {

    @TempDir
    Path folder;

    static List<ImportSource.Raw> all(NdjsonSource source, long after) throws Exception {
        var read = new ArrayList<ImportSource.Raw>();
        source.after(after).forEachRemaining(read::add);
        return read;
    }

    @Test
    void aLineInAnotherEncodingIsHandedOnWithoutTextAndTheRestIsRead() throws Exception {
        var bytes = new ByteArrayOutputStream();
        bytes.writeBytes("{\"data\": {\"surname\": \"Иванов\"}}\n".getBytes(StandardCharsets.UTF_8));
        // a legacy export's line in Windows-1251: not UTF-8
        bytes.writeBytes("{\"data\": {\"surname\": \"Петров\"}}\r\n".getBytes(Charset.forName("windows-1251")));
        bytes.writeBytes("\n{\"data\": {\"surname\": \"Сидоров\"}}".getBytes(StandardCharsets.UTF_8));
        Path file = folder.resolve("mixed.ndjson");
        Files.write(file, bytes.toByteArray());

        try (var source = new NdjsonSource(file)) {
            assertThat(source.count()).isEqualTo(4);
            assertThat(all(source, 0)).containsExactly(
                    new ImportSource.Raw(1, "{\"data\": {\"surname\": \"Иванов\"}}"),
                    new ImportSource.Raw(2, null),
                    new ImportSource.Raw(4, "{\"data\": {\"surname\": \"Сидоров\"}}"));
            assertThat(all(source, 2)).as("resumed after the bad line")
                    .containsExactly(new ImportSource.Raw(4, "{\"data\": {\"surname\": \"Сидоров\"}}"));
        }
    }

    @Test
    void windowsLineEndsAndALongLineAreReadWhole() throws Exception {
        String longLine = "{\"data\": {\"note\": \"" + "ж".repeat(100_000) + "\"}}";
        Path file = folder.resolve("crlf.ndjson");
        Files.writeString(file, "{\"data\": {}}\r\n" + longLine + "\r\n", StandardCharsets.UTF_8);

        try (var source = new NdjsonSource(file)) {
            assertThat(all(source, 0)).containsExactly(new ImportSource.Raw(1, "{\"data\": {}}"),
                    new ImportSource.Raw(2, longLine));
        }
    }
}
