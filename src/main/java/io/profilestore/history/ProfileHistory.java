package io.profilestore.history;

import io.profilestore.api.Profile;
import io.profilestore.api.ProfileVersion;
import io.profilestore.api.ProfileVersions;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.VersionKind;
import io.profilestore.change.VersionRows;
import io.profilestore.profiles.ProfileNotFoundException;
import io.profilestore.search.CursorSeal;
import io.profilestore.search.InvalidSearchException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a profile said, and when (docs/history.md): its versions, newest first, a page at a time; one of them; and the one
 * current at a moment. Every version a change made stays readable for the retention after it was replaced, also once
 * the profile is erased.
 */
public class ProfileHistory {

    /** The most versions on one page. */
    public static final int MAX_PAGE = 100;

    private final VersionRows versions;
    private final CursorSeal cursors;
    private final int defaultPageSize;

    public ProfileHistory(VersionRows versions, CursorSeal cursors, int defaultPageSize) {
        this.versions = versions;
        this.cursors = cursors;
        this.defaultPageSize = defaultPageSize;
    }

    /**
     * A page of the profile's versions, newest first: from the newest, or from where {@code cursor} (one this gave out
     * for the same profile) says. A profile whose history keeps nothing is not found.
     */
    public ProfileVersions versions(UUID pid, Integer limit, String cursor) {
        int size = limit == null ? defaultPageSize : limit;
        if (size < 1 || size > MAX_PAGE) {
            throw new InvalidSearchException("invalid-query", "limit must be between 1 and " + MAX_PAGE);
        }
        long below = cursor == null ? Long.MAX_VALUE : below(cursors.open(cursor, scope(pid)));
        var rows = versions.versions(pid, below, size + 1);
        if (rows.isEmpty() && cursor == null) {
            throw new ProfileNotFoundException(List.of(pid));
        }
        var page = rows.subList(0, Math.min(size, rows.size()));
        String next = rows.size() > size ? cursors.seal(Long.toString(page.get(page.size() - 1).version()), scope(pid)) : null;
        return new ProfileVersions(pid, page.stream().map(ProfileHistory::toVersion).toList(), next);
    }

    /** One version of the profile, as it was. */
    public ProfileVersion version(UUID pid, long version) {
        return versions.version(pid, version).map(ProfileHistory::toVersion)
                .orElseThrow(() -> new VersionNotFoundException(pid, version));
    }

    /** The profile as it stood at {@code at}: not found when it did not exist then, or was erased or purged. */
    public Profile asOf(UUID pid, Instant at) {
        return versions.asOf(pid, at).filter(row -> row.kind() != VersionKind.ERASED && row.kind() != VersionKind.PURGED)
                .map(row -> new Profile(row.pid(), row.uid(), row.version(), row.data(), row.createdAt(), row.updatedAt()))
                .orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
    }

    private static ProfileVersion toVersion(ProfileRow row) {
        return new ProfileVersion(row.pid(), row.version(), row.kind().wireName(), row.updatedAt(), row.uid(), row.data(),
                ProfileRow.NO_WRITER.equals(row.writtenBy()) ? null : row.writtenBy());
    }

    /** A cursor of one profile's versions works for that profile only. */
    private static String scope(UUID pid) {
        return "versions " + pid;
    }

    private static long below(String opened) {
        try {
            return Long.parseLong(opened);
        } catch (NumberFormatException e) {
            throw new InvalidSearchException("invalid-query", "the cursor is not one this service gave out for these versions; start again");
        }
    }
}
