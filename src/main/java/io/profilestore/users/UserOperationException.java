package io.profilestore.users;

/** A merge or unmerge that cannot be done as asked. */
public class UserOperationException extends RuntimeException {

    /** How it maps to HTTP: a request that makes no sense, one that found no merge, one the users' state forbids. */
    public enum Kind { INVALID, NOT_FOUND, CONFLICT, TOO_LARGE }

    private final Kind kind;
    private final Integer limit;

    public UserOperationException(Kind kind, String message) {
        this(kind, message, null);
    }

    /** @param limit the limit the operation would break, when one does */
    public UserOperationException(Kind kind, String message, Integer limit) {
        super(message);
        this.kind = kind;
        this.limit = limit;
    }

    public Kind kind() {
        return kind;
    }

    /** The limit it would break, or null. */
    public Integer limit() {
        return limit;
    }
}
