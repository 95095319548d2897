package io.profilestore.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.profilestore.api.JsonFormat;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a profile document may be, before and after a merge patch, read with the service's own JSON settings. */
class DocumentsTest {

    private static final ObjectMapper JSON = JsonFormat.configure(new ObjectMapper());
    private static final int LIMIT = 1024;

    private final Documents documents = new Documents(JSON, LIMIT);

    @Test
    void anObjectIsStoredAsCompactJsonWithItsNumbersExact() {
        var sent = json("{ \"surname\" : \"Иванов\",\n \"n\": 0.1, \"big\": 123456789012345678901234 }");
        assertThat(documents.compact(sent))
                .isEqualTo("{\"surname\":\"Иванов\",\"n\":0.1,\"big\":123456789012345678901234}");
        assertThat(documents.compact(json("{}"))).isEqualTo("{}");
    }

    @Test
    void anAbsentOrNullDocumentIsRequired() {
        for (JsonNode absent : new JsonNode[] {null, MissingNode.getInstance(), json("null")}) {
            assertThatThrownBy(() -> documents.compact(absent))
                    .isInstanceOf(InvalidDocumentException.class)
                    .hasMessage("data is required: a JSON object");
        }
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
            "[1, 2]|an array", "\"Иванов\"|a string", "42|a number", "true|a boolean"})
    void aDocumentThatIsNotAnObjectIsRefusedWithoutQuotingIt(String document, String kind) {
        assertThatThrownBy(() -> documents.compact(json(document)))
                .isInstanceOf(InvalidDocumentException.class)
                .hasMessage("data must be a JSON object, not " + kind);
    }

    @Test
    void theLimitCountsBytesOfCompactUtf8() {
        String atLimit = object(LIMIT);
        assertThat(documents.compact(json(atLimit))).hasSize(LIMIT);

        var tooLarge = catchThrowableOfType(DocumentTooLargeException.class,
                () -> documents.compact(json(object(LIMIT + 1))));
        assertThat(tooLarge).hasMessageContaining("is " + (LIMIT + 1) + " bytes of JSON");
        assertThat(tooLarge.limit()).isEqualTo(LIMIT);

        // spaces the caller sent are not counted; a Cyrillic letter is two bytes
        assertThat(documents.compact(json(" " + atLimit.replace(":", " : ") + " "))).isEqualTo(atLimit);
        String cyrillic = "{\"s\":\"" + "я".repeat((LIMIT - 8) / 2) + "\"}";
        assertThat(cyrillic.getBytes(StandardCharsets.UTF_8)).hasSize(LIMIT);
        assertThat(documents.compact(json(cyrillic))).isEqualTo(cyrillic);
        assertThatThrownBy(() -> documents.compact(json(cyrillic.replace("\"}", "я\"}"))))
                .isInstanceOf(DocumentTooLargeException.class);
    }

    @Test
    void aMergePatchSetsReplacesAndRemovesMembersAsRfc7396Says() {
        String stored = "{\"surname\":\"Иванов\",\"phones\":[\"1\",\"2\"],"
                + "\"address\":{\"city\":\"Омск\",\"zip\":\"644000\"},\"n\":0.10}";

        String patched = documents.mergePatch(stored,
                json("{\"surname\": \"Петров\", \"phones\": [\"3\"], \"address\": {\"zip\": null},"
                        + " \"email\": \"a@b.c\"}"));

        assertThat(json(patched)).isEqualTo(json("{\"surname\":\"Петров\",\"phones\":[\"3\"],"
                + "\"address\":{\"city\":\"Омск\"},\"n\":0.10,\"email\":\"a@b.c\"}"));
        assertThat(patched).as("numbers stay as written").contains("\"n\":0.10");
        assertThat(documents.mergePatch(stored, json("{}"))).isEqualTo(stored);
    }

    @Test
    void aMergePatchMustBeAnObject() {
        assertThatThrownBy(() -> documents.mergePatch("{}", null)).isInstanceOf(InvalidDocumentException.class)
                .hasMessage("the merge patch is empty");
        assertThatThrownBy(() -> documents.mergePatch("{}", MissingNode.getInstance()))
                .isInstanceOf(InvalidDocumentException.class).hasMessage("the merge patch is empty");
        // RFC 7396 would make the document this value; a profile must stay an object
        assertThatThrownBy(() -> documents.mergePatch("{\"a\":1}", json("null")))
                .isInstanceOf(InvalidDocumentException.class)
                .hasMessage("a merge patch of a profile must be a JSON object, not null");
        assertThatThrownBy(() -> documents.mergePatch("{\"a\":1}", json("[1]")))
                .isInstanceOf(InvalidDocumentException.class)
                .hasMessage("a merge patch of a profile must be a JSON object, not an array");
    }

    @Test
    void aPatchedDocumentKeepsTheLimit() {
        String stored = object(LIMIT - 100);
        String grown = "{\"more\":\"" + "x".repeat(100) + "\"}";

        var tooLarge = catchThrowableOfType(DocumentTooLargeException.class,
                () -> documents.mergePatch(stored, json(grown)));

        assertThat(tooLarge.limit()).isEqualTo(LIMIT);
        var size = Pattern.compile("is (\\d+) bytes of JSON").matcher(tooLarge.getMessage());
        assertThat(size.find()).as(tooLarge.getMessage()).isTrue();
        assertThat(Integer.parseInt(size.group(1))).isGreaterThan(LIMIT);
        assertThat(documents.mergePatch(object(LIMIT), json("{\"blob\": \"x\"}"))).isEqualTo("{\"blob\":\"x\"}");
    }

    /** A compact object of exactly {@code bytes} bytes: {"blob":"xxx…"}. */
    private static String object(int bytes) {
        return "{\"blob\":\"" + "x".repeat(bytes - 11) + "\"}";
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
