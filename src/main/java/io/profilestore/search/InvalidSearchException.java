package io.profilestore.search;

/** A search that cannot be run as asked: no criteria, a criterion without letters or digits, a bad cursor. */
public class InvalidSearchException extends RuntimeException {

    private final String slug;

    public InvalidSearchException(String slug, String message) {
        super(message);
        this.slug = slug;
    }

    /** The problem type: invalid-query or cursor-expired. */
    public String slug() {
        return slug;
    }
}
