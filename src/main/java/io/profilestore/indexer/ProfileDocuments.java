package io.profilestore.indexer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.core.search.NameNormalizer;
import io.profilestore.core.search.ProfileDocument;
import io.profilestore.db.ProfileDao;
import io.profilestore.db.ProfileRow;
import io.profilestore.db.UserRow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Map;
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

    public ProfileDocuments(ProfileDao profiles, NameNormalizer names, ObjectMapper json) {
        this.profiles = profiles;
        this.names = names;
        this.json = json;
    }

    /** The current documents of these profiles; a profile Cassandra no longer has is absent from the answer. */
    public Map<UUID, Indexable> current(Collection<UUID> pids) {
        return of(profiles.findAll(pids).values());
    }

    /** Documents of rows already read (by a scan), with their users' masters. */
    public Map<UUID, Indexable> of(Collection<ProfileRow> rows) {
        var users = profiles.findUsers(rows.stream().map(ProfileRow::uid).filter(java.util.Objects::nonNull)
                .collect(Collectors.toSet()));
        return rows.stream().collect(Collectors.toMap(ProfileRow::pid, row -> document(row, users.get(row.uid()))));
    }

    private Indexable document(ProfileRow row, UserRow user) {
        try {
            return new Indexable(ProfileDocument.of(row.pid(), row.uid(), user == null ? null : user.masterUid(),
                    row.version(), json.readTree(row.data()), row.updatedAt(), names), row.written());
        } catch (IOException e) {
            throw new UncheckedIOException("profile " + row.pid() + " holds data that is not JSON", e);
        }
    }
}
