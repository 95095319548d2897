package io.profilestore.change;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What kind of change made a version of a profile, as its history (and the change stream) says it. {@link #UNRECORDED}
 * is the kind of a version made before kinds were kept.
 */
public enum VersionKind {
    CREATED("created"),
    REPLACED("replaced"),
    PATCHED("patched"),
    BATCH_UPDATED("batchUpdated"),
    /** Moved to another user by hand, or put under the root of its user's tree by the system. */
    MOVED("moved"),
    MERGED("merged"),
    UNMERGED("unmerged"),
    /** The profile was erased: the version holds no data. */
    ERASED("erased"),
    IMPORTED("imported"),
    /**
     * Every version below this one was purged (the right to erasure): it holds no data and no user, and keeps the pid's
     * numbering going.
     */
    PURGED("purged"),
    UNRECORDED("unrecorded");

    private static final Map<String, VersionKind> BY_NAME = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(VersionKind::wireName, Function.identity()));

    private final String wireName;

    VersionKind(String wireName) {
        this.wireName = wireName;
    }

    /** The name stored in Cassandra and shown by the API. */
    public String wireName() {
        return wireName;
    }

    /** The kind a stored name says; none (a row from before kinds were kept) or one unknown here is unrecorded. */
    public static VersionKind of(String wireName) {
        return wireName == null ? UNRECORDED : BY_NAME.getOrDefault(wireName, UNRECORDED);
    }
}
