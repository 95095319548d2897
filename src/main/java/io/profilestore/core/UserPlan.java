package io.profilestore.core;

import io.profilestore.db.ProfileDao.Link;
import io.profilestore.db.ProfileRow;
import io.profilestore.db.UserOperations.Move;
import io.profilestore.db.UserRow;
import java.util.List;

/**
 * What one operation on users writes (all of it at one fence, as one logged batch), what it journals, and what it
 * answers. {@link UserPlanner} makes it; {@link UserService} writes it.
 */
public record UserPlan<A>(List<ProfileRow> profiles, List<Link> unlinks, List<Link> links, List<UserRow> users,
        List<Move> moves, A answer) {

    public UserPlan {
        profiles = List.copyOf(profiles);
        unlinks = List.copyOf(unlinks);
        links = List.copyOf(links);
        users = List.copyOf(users);
        moves = List.copyOf(moves);
    }
}
