package io.profilestore.limits;

import java.util.Locale;

/** What a limited request does: each kind has a bucket of its own per caller. */
public enum RequestKind {
    /** A GET of one thing: a profile, a user, a user's merges, the audit trail, the caller itself. */
    READ,
    /** GET or POST /v1/search, and the possible duplicates of a profile (GET /v1/profiles/{pid}/matches). */
    SEARCH;

    /** As the metrics label it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
