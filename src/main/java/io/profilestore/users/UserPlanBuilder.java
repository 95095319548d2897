package io.profilestore.users;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The rows of a {@link UserPlan} as {@link UserPlanner} makes it. */
final class UserPlanBuilder {

    private final List<ProfileRow> profiles = new ArrayList<>();
    private final List<Link> unlinks = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    private final List<UserRow> users = new ArrayList<>();
    private final List<Move> moves = new ArrayList<>();
    private final List<UUID> notMoved = new ArrayList<>();

    /** The profile, now as {@code next}, leaves {@code from}'s list for its new user's; journaled as a move. */
    void move(ProfileRow next, UUID from) {
        profiles.add(next);
        unlinks.add(new Link(from, next.pid()));
        links.add(new Link(next.uid(), next.pid()));
        moves.add(new Move(next.pid(), from, next.home(), next.uid(), next.version()));
    }

    /**
     * A profile the interrupted run of a resumed operation moved already, written again as it stands; journaled at the
     * version that run gave it ({@code journaled}, when it journaled one), not at one a change since gave it.
     */
    void movedAlready(ProfileRow row, UUID from, Move journaled) {
        profiles.add(row);
        unlinks.add(new Link(from, row.pid()));
        links.add(new Link(row.uid(), row.pid()));
        moves.add(new Move(row.pid(), from, row.home(), row.uid(), journaled != null ? journaled.version() : row.version()));
    }

    /** The profile, now as {@code next}, stays where it is (moved by hand to the user it is under). */
    void rewrite(ProfileRow next) {
        profiles.add(next);
    }

    void relist(UUID from, UUID to, UUID pid) {
        unlinks.add(new Link(from, pid));
        links.add(new Link(to, pid));
    }

    /** A profile the interrupted run of a resumed operation journaled, and surely did not move. */
    void notMoved(UUID pid) {
        notMoved.add(pid);
    }

    void user(UserRow row) {
        users.add(row);
    }

    List<Move> moves() {
        return moves;
    }

    /** The pids moved, by the user they came from. */
    Map<UUID, List<UUID>> movedByOrigin() {
        var moved = new LinkedHashMap<UUID, List<UUID>>();
        moves.forEach(move -> moved.computeIfAbsent(move.from(), f -> new ArrayList<>()).add(move.pid()));
        return moved;
    }

    /** The pids moved, by the user they went to. */
    Map<UUID, List<UUID>> movedByDestination() {
        var moved = new LinkedHashMap<UUID, List<UUID>>();
        moves.forEach(move -> moved.computeIfAbsent(move.to(), t -> new ArrayList<>()).add(move.pid()));
        return moved;
    }

    /** The version each moved profile is at now. */
    Map<UUID, Long> versions() {
        var versions = new LinkedHashMap<UUID, Long>();
        moves.forEach(move -> versions.put(move.pid(), move.version()));
        return versions;
    }

    <A> UserPlan<A> done(A answer) {
        return new UserPlan<>(profiles, unlinks, links, users, moves, notMoved, answer);
    }
}
