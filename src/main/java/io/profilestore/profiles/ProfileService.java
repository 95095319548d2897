package io.profilestore.profiles;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.api.Profile;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.LockTable;
import io.profilestore.change.Origin;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite;
import io.profilestore.change.RowWrite.EraseProfile;
import io.profilestore.change.RowWrite.LinkProfile;
import io.profilestore.change.RowWrite.PurgeVersions;
import io.profilestore.change.RowWrite.PutNewUser;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.RecordVersion;
import io.profilestore.change.RowWrite.UnlinkProfile;
import io.profilestore.change.UserRow;
import io.profilestore.change.VersionKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Profile changes, each on the one write path of {@link ChangeRunner}: lock, read the current rows, check versions,
 * record, write at the fence, release. A rejected change writes nothing.
 */
public class ProfileService {

    /** One profile of a batch update: its new document and the version it replaces. */
    public record Update(UUID pid, long expectedVersion, JsonNode data) {
    }

    private final ProfileRows tables;
    private final ChangeRunner changes;
    private final Documents documents;
    private final int maxBatchSize;
    private final int maxProfilesPerUser;

    public ProfileService(ProfileRows tables, ChangeRunner changes, Documents documents, int maxBatchSize,
            int maxProfilesPerUser) {
        this.tables = tables;
        this.changes = changes;
        this.documents = documents;
        this.maxBatchSize = maxBatchSize;
        this.maxProfilesPerUser = maxProfilesPerUser;
    }

    public Profile get(UUID pid) {
        return tables.find(pid).map(ProfileService::toProfile).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
    }

    /** Creates a profile, under a new user when {@code uid} is null; a uid nobody has is refused. */
    public Profile create(Origin origin, UUID uid, JsonNode data) {
        return create(origin, UUID.randomUUID(), uid, documents.compact(data), false);
    }

    /**
     * Creates a profile at a pid the caller chose (PUT with If-None-Match: *, how an import keeps a system's ids):
     * refused (412) when the pid has a profile. Under a new user when {@code uid} is null; a uid nobody has is made,
     * with the profile, so that the system's users are kept too.
     */
    public Profile createAt(Origin origin, UUID pid, UUID uid, JsonNode data) {
        return create(origin, pid, uid, documents.compact(data), true);
    }

    private Profile create(Origin origin, UUID pid, UUID uid, String document, boolean givenPid) {
        UUID owner = uid == null ? UUID.randomUUID() : uid;
        return underLock(origin, List.of(LockTable.profile(pid), LockTable.user(owner)), change -> {
            // at a pid the caller chose, an erased profile's history goes on: its numbering, so that no ETag of the
            // profile erased applies to the one created
            Optional<ProfileRow> before = Optional.empty();
            if (givenPid) {
                tables.find(pid).ifPresent(existing -> {
                    throw new ProfileExistsException(pid, existing.version());
                });
                before = tables.newestVersion(pid);
            }
            var user = uid == null ? Optional.<UserRow>empty() : tables.findUser(owner);
            if (uid != null && user.isEmpty() && !givenPid) {
                throw new UserNotFoundException(owner);
            }
            if (user.isPresent()) {
                if (user.get().masterUid() != null) {
                    throw new UserMergedException(owner, user.get().masterUid());
                }
                int holds = tables.pidsOfUser(owner).size();
                if (holds + 1 > maxProfilesPerUser) {
                    throw new UserFullException(owner, holds + 1, maxProfilesPerUser);
                }
            }
            before.ifPresent(erased -> change.fenceAbove(erased.written()));
            var at = change.lease().timestamp();
            long version = before.map(erased -> erased.version() + 1).orElse(1L);
            var row = new ProfileRow(pid, owner, owner, version, document, at, at, change.lease().fence(), null,
                    VersionKind.CREATED);
            var writes = new ArrayList<RowWrite>(List.of(new PutProfile(row), new RecordVersion(row, before.orElse(null)),
                    new LinkProfile(owner, pid)));
            if (user.isEmpty()) {
                writes.add(new PutNewUser(owner, at));
            }
            change.commit(List.of(OutboxRecord.profile(pid, version, change.lease().fence())), writes);
            return toProfile(row);
        });
    }

    /**
     * Creates up to a batch of profiles, each under a new user, all or none: one lock statement, one outbox
     * transaction, one logged batch. The bulk path of imports.
     */
    public List<Profile> createMany(Origin origin, List<JsonNode> datas) {
        if (datas.isEmpty()) {
            throw new InvalidDocumentException("profiles must hold at least one profile");
        }
        if (datas.size() > maxBatchSize) {
            throw new InvalidDocumentException("a batch may create at most " + maxBatchSize + " profiles, not " + datas.size());
        }
        var documentsToStore = datas.stream().map(documents::compact).toList();
        var pids = new ArrayList<UUID>();
        var uids = new ArrayList<UUID>();
        var entities = new ArrayList<String>();
        for (int i = 0; i < datas.size(); i++) {
            pids.add(UUID.randomUUID());
            uids.add(UUID.randomUUID());
            entities.add(LockTable.profile(pids.get(i)));
            entities.add(LockTable.user(uids.get(i)));
        }
        return underLock(origin, entities, change -> {
            var lease = change.lease();
            var at = lease.timestamp();
            var writes = new ArrayList<RowWrite>();
            var records = new ArrayList<OutboxRecord>();
            var created = new ArrayList<Profile>();
            for (int i = 0; i < pids.size(); i++) {
                var row = new ProfileRow(pids.get(i), uids.get(i), uids.get(i), 1, documentsToStore.get(i), at, at, lease.fence(),
                        null, VersionKind.CREATED);
                writes.addAll(List.of(new PutProfile(row), new RecordVersion(row, null), new LinkProfile(row.uid(), row.pid()),
                        new PutNewUser(row.uid(), at)));
                records.add(OutboxRecord.profile(row.pid(), 1, lease.fence()));
                created.add(toProfile(row));
            }
            change.commit(records, writes);
            return created;
        });
    }

    public Profile replace(Origin origin, UUID pid, long expectedVersion, JsonNode data) {
        String document = documents.compact(data);
        return change(origin, pid, expectedVersion, VersionKind.REPLACED, current -> document);
    }

    public Profile patch(Origin origin, UUID pid, long expectedVersion, JsonNode mergePatch) {
        return change(origin, pid, expectedVersion, VersionKind.PATCHED,
                current -> documents.mergePatch(current.data(), mergePatch));
    }

    /**
     * Erases a profile: its row and its place in its user's list go; its history keeps the erase as a version of its own,
     * with no data, so that the version it had is never reused.
     */
    public void erase(Origin origin, UUID pid, long expectedVersion) {
        underLock(origin, List.of(LockTable.profile(pid)), change -> {
            var current = current(pid, expectedVersion);
            change.fenceAbove(current.written());
            var erased = current.erased(change.lease().timestamp(), change.lease().fence());
            change.commit(List.of(OutboxRecord.profileErased(pid, erased.version(), change.lease().fence())),
                    List.of(new EraseProfile(pid), new RecordVersion(erased, current), new UnlinkProfile(current.uid(), pid)));
            return null;
        });
    }

    /**
     * Removes every version of a profile from its history, for the right to erasure (docs/history.md): an erased
     * profile's; a profile that stands is erased with it, only at {@code expectedVersion} (null: refused, 409). Its
     * index document goes too (an erase's record). What stays is one version of its own, kind purged, with no data and
     * no user: the pid's numbering goes on from it, an import leaves the pid alone, and the change stream tells
     * consumers to forget the profile.
     */
    public void purge(Origin origin, UUID pid, Long expectedVersion) {
        underLock(origin, List.of(LockTable.profile(pid)), change -> {
            var current = tables.find(pid);
            var newest = tables.newestVersion(pid);
            if (current.isEmpty() && newest.isEmpty()) {
                throw new ProfileNotFoundException(List.of(pid));
            }
            var writes = new ArrayList<RowWrite>();
            if (current.isPresent()) {
                if (expectedVersion == null) {
                    throw new ProfileNotErasedException(pid, current.get().version());
                }
                if (current.get().version() != expectedVersion) {
                    throw new VersionMismatchException(Map.of(pid, current.get().version()));
                }
                writes.addAll(List.of(new EraseProfile(pid), new UnlinkProfile(current.get().uid(), pid)));
            }
            change.fenceAbove(Math.max(current.map(ProfileRow::written).orElse(0L),
                    newest.map(ProfileRow::written).orElse(0L)));
            long version = 1 + Math.max(current.map(ProfileRow::version).orElse(0L),
                    newest.map(ProfileRow::version).orElse(0L));
            var at = change.lease().timestamp();
            var purged = new ProfileRow(pid, null, null, version, null, null, at, change.lease().fence(), null,
                    VersionKind.PURGED);
            writes.add(new PurgeVersions(pid, version));
            writes.add(new RecordVersion(purged, null));
            change.commit(List.of(OutboxRecord.profileErased(pid, version, change.lease().fence())), writes);
            return null;
        });
    }

    /** Replaces the documents of several profiles, all or none: one lock set, one version check, one logged batch. */
    public List<Profile> batchUpdate(Origin origin, List<Update> updates) {
        if (updates.isEmpty()) {
            throw new InvalidDocumentException("updates must name at least one profile");
        }
        if (updates.size() > maxBatchSize) {
            throw new InvalidDocumentException("a batch may change at most " + maxBatchSize + " profiles, not "
                    + updates.size());
        }
        var byPid = new LinkedHashMap<UUID, Update>();
        for (var update : updates) {
            if (byPid.put(update.pid(), update) != null) {
                throw new InvalidDocumentException("pid " + update.pid() + " appears more than once in the batch");
            }
        }
        var documentsByPid = new LinkedHashMap<UUID, String>();
        byPid.forEach((pid, update) -> documentsByPid.put(pid, documents.compact(update.data())));
        return underLock(origin, byPid.keySet().stream().map(LockTable::profile).toList(), change -> {
            var current = tables.findAll(byPid.keySet());
            var missing = byPid.keySet().stream().filter(pid -> !current.containsKey(pid)).toList();
            if (!missing.isEmpty()) {
                throw new ProfileNotFoundException(missing);
            }
            var stale = new LinkedHashMap<UUID, Long>();
            byPid.forEach((pid, update) -> {
                if (current.get(pid).version() != update.expectedVersion()) {
                    stale.put(pid, current.get(pid).version());
                }
            });
            if (!stale.isEmpty()) {
                throw new VersionMismatchException(stale);
            }
            change.fenceAbove(current.values().stream().mapToLong(ProfileRow::written).max().orElse(0));
            var at = change.lease().timestamp();
            var rows = new ArrayList<ProfileRow>();
            byPid.keySet().forEach(pid -> {
                var row = current.get(pid);
                rows.add(new ProfileRow(pid, row.uid(), row.recordedHome(), row.version() + 1, documentsByPid.get(pid),
                        row.createdAt(), at, change.lease().fence(), null, VersionKind.BATCH_UPDATED));
            });
            var writes = new ArrayList<RowWrite>();
            rows.forEach(row -> writes.addAll(List.of(new PutProfile(row), new RecordVersion(row, current.get(row.pid())))));
            change.commit(rows.stream().map(r -> OutboxRecord.profile(r.pid(), r.version(), r.written())).toList(), writes);
            return rows.stream().map(ProfileService::toProfile).toList();
        });
    }

    private Profile change(Origin origin, UUID pid, long expectedVersion, VersionKind kind,
            Function<ProfileRow, String> newDocument) {
        return underLock(origin, List.of(LockTable.profile(pid)), change -> {
            var current = current(pid, expectedVersion);
            change.fenceAbove(current.written());
            var next = new ProfileRow(pid, current.uid(), current.recordedHome(), current.version() + 1, newDocument.apply(current),
                    current.createdAt(), change.lease().timestamp(), change.lease().fence(), null, kind);
            change.commit(List.of(OutboxRecord.profile(pid, next.version(), next.written())),
                    List.of(new PutProfile(next), new RecordVersion(next, current)));
            return toProfile(next);
        });
    }

    private ProfileRow current(UUID pid, long expectedVersion) {
        var current = tables.find(pid).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
        if (current.version() != expectedVersion) {
            throw new VersionMismatchException(Map.of(pid, current.version()));
        }
        return current;
    }

    private <T> T underLock(Origin origin, List<String> entities, Function<ChangeRunner.Change, T> body) {
        return changes.underLock(origin, entities, body);
    }

    public static Profile toProfile(ProfileRow row) {
        return new Profile(row.pid(), row.uid(), row.version(), row.data(), row.createdAt(), row.updatedAt());
    }

}
