package io.profilestore.changestream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournalHistory.Moving;
import io.profilestore.change.VersionKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Iterator;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The change stream's events as CloudEvents 1.0 in structured JSON (docs/change-stream.md). An event's id is made of
 * what it tells ({@code <pid>:<version>}, {@code merge:<operation>}), so that a repeat keeps it and a consumer drops
 * what it has seen.
 */
final class CloudEvents {

    static final String CONTENT_TYPE = "application/cloudevents+json";
    static final String TYPE_PREFIX = "io.profilestore.";

    private final ObjectMapper json;
    private final String source;
    private final boolean includeValues;

    CloudEvents(ObjectMapper json, String source, boolean includeValues) {
        this.json = json;
        this.source = source;
        this.includeValues = includeValues;
    }

    /**
     * The type of a profile's version: created, updated, erased, purged or moved. (An unrecorded version is never
     * sent: {@link StreamBatch} leaves it out; were it, it would be an update.)
     */
    static String typeOf(VersionKind kind) {
        return TYPE_PREFIX + switch (kind) {
            case CREATED, IMPORTED -> "profile.created";
            case ERASED -> "profile.erased";
            case PURGED -> "profile.purged";
            case MOVED, MERGED, UNMERGED -> "profile.moved";
            case REPLACED, PATCHED, BATCH_UPDATED, UNRECORDED -> "profile.updated";
        };
    }

    /**
     * A version of a profile; {@code previous} is the version before it when the history still keeps it (null: the
     * members changed are not known, and the event says none).
     */
    ObjectNode profile(ProfileRow version, ProfileRow previous) {
        var data = json.createObjectNode();
        data.put("pid", version.pid().toString());
        if (version.uid() != null) {
            data.put("uid", version.uid().toString()); // a purge's version names no user
        }
        data.put("version", version.version());
        data.put("kind", version.kind().wireName());
        if (version.kind() != VersionKind.ERASED && version.kind() != VersionKind.PURGED) {
            var changed = changedMembers(previous == null ? null : previous.data(), version.data(),
                    version.kind() == VersionKind.CREATED || version.kind() == VersionKind.IMPORTED);
            if (changed != null) {
                var names = data.putArray("changedFields");
                changed.forEach(names::add);
            }
            if (includeValues && version.data() != null) {
                data.set("data", parse(version.data()));
            }
        }
        if (version.writtenBy() != null && !ProfileRow.NO_WRITER.equals(version.writtenBy())) {
            data.put("requestId", version.writtenBy().toString());
        }
        return envelope(version.pid() + ":" + version.version(), typeOf(version.kind()), version.updatedAt(),
                version.pid().toString(), data);
    }

    /** A merge or unmerge, as one event: its target, its sources and every profile it moved, at its version. */
    ObjectNode user(Moving operation, Instant at) {
        boolean merge = operation.kind() == UserJournal.Kind.MERGE;
        var data = json.createObjectNode();
        data.put("operationId", operation.opId().toString());
        data.put("target", operation.target().toString());
        var sources = data.putArray("sources");
        operation.sources().forEach(source -> sources.add(source.toString()));
        var profiles = data.putArray("profiles");
        operation.moves().forEach(move -> {
            var moved = profiles.addObject();
            moved.put("pid", move.pid().toString());
            moved.put("version", move.version());
            moved.put("from", move.from().toString());
            moved.put("to", move.to().toString());
        });
        String kind = merge ? "merge" : "unmerge";
        return envelope(kind + ":" + operation.opId(), TYPE_PREFIX + "user." + kind + "d", at,
                operation.target().toString(), data);
    }

    byte[] bytes(ObjectNode event) {
        try {
            return json.writeValueAsBytes(event);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ObjectNode envelope(String id, String type, Instant time, String subject, ObjectNode data) {
        var event = json.createObjectNode();
        event.put("specversion", "1.0");
        event.put("id", id);
        event.put("source", source);
        event.put("type", type);
        if (time != null) {
            event.put("time", time.toString());
        }
        event.put("subject", subject);
        event.put("datacontenttype", "application/json");
        event.set("data", data);
        return event;
    }

    /**
     * The top-level members that differ between two documents, sorted; all of the new one's for a created profile;
     * null when the one before is not known.
     */
    private TreeSet<String> changedMembers(String before, String after, boolean created) {
        var now = after == null ? json.createObjectNode() : parse(after);
        if (created) {
            return names(now.fieldNames(), new TreeSet<>());
        }
        if (before == null) {
            return null;
        }
        var then = parse(before);
        var changed = new TreeSet<String>();
        names(now.fieldNames(), new TreeSet<>()).forEach(name -> {
            if (!Objects.equals(now.get(name), then.get(name))) {
                changed.add(name);
            }
        });
        names(then.fieldNames(), new TreeSet<>()).forEach(name -> {
            if (!now.has(name)) {
                changed.add(name);
            }
        });
        return changed;
    }

    private static TreeSet<String> names(Iterator<String> names, TreeSet<String> into) {
        names.forEachRemaining(into::add);
        return into;
    }

    private JsonNode parse(String document) {
        try {
            return json.readTree(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
