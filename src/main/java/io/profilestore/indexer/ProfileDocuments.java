package io.profilestore.indexer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserRow;
import io.profilestore.search.NameNormalizer;
import io.profilestore.search.NumberKeys;
import io.profilestore.search.ProfileDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

/** Reads profiles from Cassandra and turns them into index documents: what the indexer and a reindex write. */
public class ProfileDocuments {

    /** A document to index, and the external version to index it with (its row's write timestamp). */
    public record Indexable(ProfileDocument document, long written) {
    }

    private final ProfileDao profiles;
    private final NameNormalizer names;
    private final ObjectMapper json;
    private final NumberKeys keys;

    public ProfileDocuments(ProfileDao profiles, NameNormalizer names, ObjectMapper json, NumberKeys keys) {
        this.profiles = profiles;
        this.names = names;
        this.json = json;
        this.keys = keys;
    }

    /**
     * What Cassandra holds now of these profiles, as documents; a profile Cassandra no longer has is in neither
     * map, one whose stored data is not JSON is in {@code unreadable} (with why), so that it fails alone.
     */
    public record Current(Map<UUID, Indexable> documents, Map<UUID, String> unreadable) {
    }

    public Current current(Collection<UUID> pids) {
        return of(profiles.findAll(pids).values());
    }

    /** Documents of rows already read (by a scan), with their users' masters; unreadable ones apart. */
    public Current of(Collection<ProfileRow> rows) {
        var users = usersOf(rows);
        var documents = new HashMap<UUID, Indexable>();
        var unreadable = new HashMap<UUID, String>();
        for (var row : rows) {
            try {
                documents.put(row.pid(), document(row, users.get(row.uid())));
            } catch (UncheckedIOException e) {
                unreadable.put(row.pid(), "stored data that is not JSON");
            }
        }
        return new Current(documents, unreadable);
    }

    private Map<UUID, UserRow> usersOf(Collection<ProfileRow> rows) {
        return profiles.findUsers(rows.stream().map(ProfileRow::uid).filter(Objects::nonNull)
                .collect(Collectors.toSet()));
    }

    private Indexable document(ProfileRow row, UserRow user) {
        try {
            return new Indexable(ProfileDocument.of(row.pid(), row.uid(), user == null ? null : user.masterUid(),
                    row.version(), json.readTree(row.data()), row.updatedAt(), names, keys), row.written());
        } catch (IOException e) {
            throw new UncheckedIOException("profile " + row.pid() + " holds data that is not JSON", e);
        }
    }
}
