package io.profilestore.users;

import io.profilestore.change.UserJournal;
import java.util.UUID;

/**
 * A merge or unmerge that is journaled but whose write was not confirmed: the recovery completes it after its
 * delay, or abandons it should its users have changed meanwhile. Neither "done" nor "nothing changed" would be
 * true; the answer says how to find out.
 */
public class OperationPendingException extends RuntimeException {

    private final UUID operationId;
    private final UserJournal.Kind kind;
    private final UUID target;

    public OperationPendingException(UUID operationId, UserJournal.Kind kind, UUID target, Throwable cause) {
        super(kind.name().toLowerCase() + " " + operationId + " is recorded but not confirmed", cause);
        this.operationId = operationId;
        this.kind = kind;
        this.target = target;
    }

    public UUID operationId() {
        return operationId;
    }

    public UserJournal.Kind kind() {
        return kind;
    }

    public UUID target() {
        return target;
    }
}
