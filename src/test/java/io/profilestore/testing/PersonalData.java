package io.profilestore.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The personal data the tests send (names, phones, document numbers, e-mails), noted as it goes out, and written
 * to {@code target/personal-data-sent.txt} when the test JVM ends: the log scan that runs after the tests looks
 * for every one of them in the service's logs.
 */
public final class PersonalData {

    private static final Set<String> FIELDS = Set.of("surname", "firstName", "patronymic", "email", "number");
    private static final Set<String> SENT = ConcurrentHashMap.newKeySet();
    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(PersonalData::write, "personal-data-list"));
    }

    private PersonalData() {
    }

    /** Notes the personal data in a request body (nothing if the body is not JSON). */
    public static void noteBody(String body) {
        if (body == null || body.isBlank()) {
            return;
        }
        try {
            collect(JSON.readTree(body), null);
        } catch (IOException notJson) {
            // a malformed body: the test that sends one notes its secret itself
        }
    }

    /** Notes a value a test sends in a way the body scan cannot see (inside malformed JSON, in a query). */
    public static void note(String value) {
        if (value != null && value.strip().length() >= 5) {
            SENT.add(value.strip());
        }
    }

    private static void collect(JsonNode node, String field) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> collect(e.getValue(), e.getKey()));
        } else if (node.isArray()) {
            node.forEach(item -> collect(item, field));
        } else if (node.isTextual() && field != null && (FIELDS.contains(field) || "phones".equals(field))) {
            note(node.asText());
            if ("phones".equals(field) || "number".equals(field)) {
                note(node.asText().replaceAll("\\D", ""));
            }
        }
    }

    private static void write() {
        try {
            Path file = Path.of(System.getProperty("profileStore.projectDir", "."), "target", "personal-data-sent.txt");
            Files.createDirectories(file.getParent());
            Files.write(file, new TreeSet<>(SENT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
