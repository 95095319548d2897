package io.profilestore.limits;

import java.util.Locale;

/** What a limited request does: each kind has a bucket of its own per caller. */
public enum RequestKind {
    /** A GET of one thing: a profile, a user, a user's merges, the audit trail, the caller itself. */
    READ,
    /** GET or POST /v1/search, and the possible duplicates of a profile (GET /v1/profiles/{pid}/matches). */
    SEARCH,
    /**
     * A change: every POST, PUT, PATCH and DELETE of /v1 but a search. A change answers with the profile it leaves,
     * so an unlimited one would be a read by another name ({@code PATCH {}} at the version a 412 named).
     */
    WRITE;

    /** As the metrics label it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
