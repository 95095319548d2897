package io.profilestore.users;

import io.profilestore.users.UsersModel.Answer;
import java.util.List;
import java.util.UUID;

/**
 * What {@link UserSequences} runs against the model: the service's rules over maps ({@link UsersOnMaps}), or the
 * service itself over HTTP. Ids it makes (pids, uids, merge ids) come back in the answers.
 */
interface UsersUnderTest {

    /** A profile under {@code under}, or under a new user when null. */
    Answer create(UUID under);

    Answer erase(UUID pid, long ifMatch);

    Answer move(UUID pid, long ifMatch, UUID target);

    Answer merge(UUID target, List<UUID> sources);

    Answer unmerge(UUID target, UUID source);

    Answer unmergeById(UUID target, UUID mergeId);

    /** {@code GET /v1/users/{uid}}, or null when there is no such user. */
    UsersModel.Shown user(UUID uid);
}
