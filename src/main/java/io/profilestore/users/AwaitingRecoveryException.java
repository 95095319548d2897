package io.profilestore.users;

/**
 * An operation on users refused because a merge or unmerge of some of them that a crash interrupted waits for the
 * recovery (409 {@code conflict}): nothing is wrong with it, and it can be done once that one is completed. The
 * recovery itself, refused so while resuming one operation, tries that one again at its next round.
 */
public class AwaitingRecoveryException extends UserOperationException {

    public AwaitingRecoveryException(String message) {
        super(Kind.CONFLICT, message);
    }
}
