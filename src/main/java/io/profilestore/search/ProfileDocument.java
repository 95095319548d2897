package io.profilestore.search;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * What the index holds of a profile: the well-known fields of its document, their search keys, and the
 * profile's version (also the index's external version). Built from what Cassandra holds, never from a message.
 * Phone numbers, document numbers and the e-mail address are held as keyed hashes alone ({@link NumberKeys}): found
 * by an exact search, never readable from the index. Names and the birth date are held as written, since a search
 * finds a name by its beginning and a date by range.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProfileDocument(
        UUID pid,
        UUID uid,
        UUID masterUid,
        long version,
        String surname,
        String firstName,
        String patronymic,
        List<String> surnameKey,
        List<String> firstNameKey,
        List<String> patronymicKey,
        String nameSort,
        LocalDate birthDate,
        List<String> phoneHashes,
        List<String> documentHashes,
        List<String> emailHashes,
        Instant updatedAt) {

    /** Reads the well-known fields of a profile's data; fields of the wrong type are left out, not fatal. */
    public static ProfileDocument of(UUID pid, UUID uid, UUID masterUid, long version, JsonNode data, Instant updatedAt,
            NameNormalizer names, NumberKeys keys) {
        String surname = text(data, "surname");
        String firstName = text(data, "firstName");
        String patronymic = text(data, "patronymic");
        String email = text(data, "email");
        return new ProfileDocument(pid, uid, masterUid, version, surname, firstName, patronymic,
                keys(surname, names), keys(firstName, names), keys(patronymic, names),
                sortKey(names, surname, firstName, patronymic),
                Numbers.date(text(data, "birthDate")).orElse(null),
                hashes(keys, NumberKeys.Kind.PHONE, phones(data.path("phones"))),
                hashes(keys, NumberKeys.Kind.DOCUMENT, documents(data.path("documents"))),
                hashes(keys, NumberKeys.Kind.EMAIL, email == null ? List.of() : List.of(email(email))),
                updatedAt);
    }

    /** An e-mail address as search compares it: without the spaces around it, in lower case. */
    public static String email(String text) {
        return text.strip().toLowerCase(Locale.ROOT);
    }

    private static List<String> hashes(NumberKeys keys, NumberKeys.Kind kind, List<String> values) {
        return nullIfEmpty(keys.hashes(kind, values));
    }

    private static String text(JsonNode data, String field) {
        var node = data.path(field);
        return node.isTextual() && !node.asText().isBlank() ? node.asText().strip() : null;
    }

    private static List<String> keys(String name, NameNormalizer names) {
        return name == null ? null : nullIfEmpty(names.indexKeys(name));
    }

    private static String sortKey(NameNormalizer names, String... parts) {
        var keys = new ArrayList<String>();
        for (String part : parts) {
            keys.add(part == null ? "" : names.sortKey(part));
        }
        String joined = String.join("|", keys);
        return joined.replace("|", "").isEmpty() ? null : joined;
    }

    /** Phones: a list of strings or of objects with a number; a single string counts as a list of one. */
    private static List<String> phones(JsonNode node) {
        return numbers(node, Numbers::phone);
    }

    /** Documents: objects {type, number} or plain numbers. */
    private static List<String> documents(JsonNode node) {
        return numbers(node, Numbers::document);
    }

    /** The items' numbers (an object's {@code number}, or the item itself), as {@code key} reads them, once each. */
    private static List<String> numbers(JsonNode node, Function<String, Optional<String>> key) {
        var numbers = new LinkedHashSet<String>();
        for (var item : items(node)) {
            var number = item.isObject() ? item.path("number") : item;
            if (number.isTextual() || number.isNumber()) {
                key.apply(number.asText()).ifPresent(numbers::add);
            }
        }
        return List.copyOf(numbers);
    }

    private static List<JsonNode> items(JsonNode node) {
        var items = new ArrayList<JsonNode>();
        if (node.isArray()) {
            node.forEach(items::add);
        } else if (!node.isMissingNode() && !node.isNull()) {
            items.add(node);
        }
        return items;
    }

    private static List<String> nullIfEmpty(List<String> list) {
        return list.isEmpty() ? null : list;
    }
}
