package io.profilestore.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The personal data the tests send (names, phones, document numbers, e-mails), noted as it goes out, and written
 * to {@code target/personal-data-sent-<fork>.txt} when the test JVM ends (one file for each fork of the integration
 * tests): the log scan that runs after the tests looks for every one of them in the service's logs.
 */
public final class PersonalData {

    private static final Set<String> FIELDS = Set.of("surname", "firstName", "patronymic", "email", "number");
    /** The search parameters that carry personal data. */
    private static final Set<String> QUERY_FIELDS = Set.of("q", "surname", "firstName", "patronymic", "phone", "document");
    private static final Set<String> SENT = ConcurrentHashMap.newKeySet();
    private static final Set<String> PREFIXES = ConcurrentHashMap.newKeySet();
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

    /**
     * Notes a value a test sends in a way the body scan cannot see (inside malformed JSON, in a query). Short
     * names count too (Анна, Ли): the scan matches whole words, so they do not hit inside other words. Left out:
     * what has fewer than two letters or digits, and numbers of fewer than five digits (no phone or document
     * number is that short, and such numbers are in every log).
     */
    public static void note(String value) {
        if (value == null) {
            return;
        }
        String stripped = value.strip();
        String alphanumeric = stripped.codePoints().filter(Character::isLetterOrDigit)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        boolean number = !alphanumeric.isEmpty() && alphanumeric.codePoints().allMatch(Character::isDigit);
        if (alphanumeric.length() >= (number ? 5 : 2)) {
            SENT.add(stripped);
        }
    }

    /**
     * A value a test sends only as the first letters of a name (a prefix search): it names no one, and such words
     * are in every log ("Mark" in a GC log, "Save" in Cassandra's), so the scan leaves it out.
     */
    public static void prefixOnly(String value) {
        PREFIXES.add(value.strip());
    }

    /** Notes the personal data in a request's query string: the names and numbers a search looks for. */
    public static void noteQuery(String pathAndQuery) {
        int query = pathAndQuery == null ? -1 : pathAndQuery.indexOf('?');
        if (query < 0) {
            return;
        }
        for (String parameter : pathAndQuery.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (equals > 0 && QUERY_FIELDS.contains(name)) {
                String raw = parameter.substring(equals + 1);
                String value;
                try {
                    value = URLDecoder.decode(raw, StandardCharsets.UTF_8);
                } catch (IllegalArgumentException malformed) {
                    value = raw;
                }
                note(value);
                if ("q".equals(name)) {
                    // the search box: each word, and what its numbers are as digits
                    // (pids and uids are not personal data, and logs name them)
                    for (String word : value.split("[\\s,;]+")) {
                        if (!word.matches("(?i)[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}")) {
                            note(word);
                        }
                    }
                    if (!value.matches("(?is).*[0-9a-f]{8}-[0-9a-f]{4}.*")) {
                        note(value.replaceAll("\\D", ""));
                    }
                }
                if ("phone".equals(name) || "document".equals(name)) {
                    note(value.replaceAll("\\D", ""));
                }
            }
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
            Path file = Path.of(System.getProperty("profileStore.projectDir", "."), "target",
                    "personal-data-sent-" + ForkedStacks.fork() + ".txt");
            Files.createDirectories(file.getParent());
            var sent = new TreeSet<>(SENT);
            sent.removeAll(PREFIXES);
            Files.write(file, sent);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
