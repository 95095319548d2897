package io.profilestore.users;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserRow;
import java.util.List;
import java.util.UUID;

/**
 * What one operation on users writes (all of it at one fence, as one logged batch), what it journals, and what it
 * answers. {@link UserPlanner} makes it; {@link UserService} writes it. {@code notMoved}: of a resumed operation, the
 * profiles its interrupted run journaled that it surely did not move, whose journal rows go.
 */
public record UserPlan<A>(List<ProfileRow> profiles, List<Link> unlinks, List<Link> links, List<UserRow> users,
        List<Move> moves, List<UUID> notMoved, A answer) {

    public UserPlan {
        profiles = List.copyOf(profiles);
        unlinks = List.copyOf(unlinks);
        links = List.copyOf(links);
        users = List.copyOf(users);
        moves = List.copyOf(moves);
        notMoved = List.copyOf(notMoved);
    }
}
