package io.profilestore.core;

/** A merge or unmerge that cannot be done as asked. */
public class UserOperationException extends RuntimeException {

    /** How it maps to HTTP: a request that makes no sense, one that found no merge, one the users' state forbids. */
    public enum Kind { INVALID, NOT_FOUND, CONFLICT, TOO_LARGE }

    private final Kind kind;

    public UserOperationException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
