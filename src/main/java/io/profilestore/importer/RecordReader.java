package io.profilestore.importer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.profiles.Documents;
import io.profilestore.profiles.InvalidDocumentException;
import io.profilestore.profiles.LimitExceededException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Set;
import java.util.UUID;

/**
 * Reads one record of an import, {@code {"pid"?, "uid"?, "data", "createdAt"?}}, and checks it as the API checks a
 * create: JSON as the API parses it (no duplicate keys, no unknown members, nesting bounded), {@code data} an object
 * within the size limit, ids that are UUIDs. A pid or uid left out is made from the record's text, never at random
 * nor from its place: a record read again, by a resumed or repeated import, or after lines before it were removed or
 * added, gets the same ids and writes the same rows. Two records of the same text are one profile.
 */
public class RecordReader {

    private static final Set<String> MEMBERS = Set.of("pid", "uid", "data", "createdAt");

    private final ObjectMapper json;
    private final Documents documents;
    private final Instant importStarted;

    /** @param importStarted the createdAt of records that give none (the checkpoint keeps it for a resumed import) */
    public RecordReader(ObjectMapper json, Documents documents, Instant importStarted) {
        // a line holds one record: whatever follows its JSON is refused, never passed over
        this.json = json.copy().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.documents = documents;
        this.importStarted = importStarted;
    }

    /** @param text the record's line; null when its bytes are not UTF-8 */
    public ImportRecord read(long position, String text) {
        if (text == null) {
            throw new RejectedRecord(position, null, "not UTF-8 text: convert the file to UTF-8 (iconv -f CP1251 -t"
                    + " UTF-8, say)");
        }
        JsonNode record;
        try {
            record = json.readTree(text);
        } catch (JsonProcessingException e) {
            var where = e.getLocation();
            throw new RejectedRecord(position, null, "not a JSON object: malformed JSON"
                    + (where == null ? "" : " at column " + where.getColumnNr()));
        }
        if (record == null || !record.isObject()) {
            throw new RejectedRecord(position, null, "not a JSON object");
        }
        // a pid is named in a rejection only when it is one: the member may hold a customer's number
        String namedPid = record.path("pid").isTextual() && isUuid(record.path("pid").asText())
                ? record.path("pid").asText() : null;
        record.fieldNames().forEachRemaining(name -> {
            if (!MEMBERS.contains(name)) {
                throw new RejectedRecord(position, namedPid, "unknown member '" + abbreviate(name)
                        + "' (a record holds pid, uid, data and createdAt)");
            }
        });
        UUID pid = id(record, "pid", position, namedPid);
        if (pid == null) {
            pid = UUID.nameUUIDFromBytes(("profile-store import: the profile of record " + sha256(text))
                    .getBytes(StandardCharsets.UTF_8));
        }
        UUID uid = id(record, "uid", position, namedPid);
        if (uid == null) {
            uid = UUID.nameUUIDFromBytes(("profile-store import: the user of profile " + pid).getBytes(StandardCharsets.UTF_8));
        }
        String data;
        try {
            data = documents.compact(record.get("data"));
        } catch (InvalidDocumentException | LimitExceededException e) {
            throw new RejectedRecord(position, namedPid, e.getMessage());
        }
        return new ImportRecord(position, pid, uid, data, createdAt(record, position, namedPid));
    }

    private static UUID id(JsonNode record, String member, long position, String namedPid) {
        var node = record.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            if (node.isTextual()) {
                return UUID.fromString(node.asText());
            }
        } catch (IllegalArgumentException e) {
            // not a UUID: refused below
        }
        throw new RejectedRecord(position, member.equals("pid") ? null : namedPid, "'" + member + "' is not a UUID");
    }

    private Instant createdAt(JsonNode record, long position, String namedPid) {
        var node = record.get("createdAt");
        if (node == null || node.isNull()) {
            return importStarted;
        }
        try {
            if (node.isTextual()) {
                return Instant.parse(node.asText());
            }
        } catch (DateTimeParseException e) {
            // refused below
        }
        throw new RejectedRecord(position, namedPid, "'createdAt' is not an instant such as 2020-01-31T10:00:00Z");
    }

    private static String abbreviate(String name) {
        return name.length() <= 40 ? name : name.substring(0, 40) + "…";
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static boolean isUuid(String text) {
        try {
            return UUID.fromString(text).toString().equalsIgnoreCase(text);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
