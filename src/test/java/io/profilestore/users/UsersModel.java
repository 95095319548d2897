package io.profilestore.users;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The reference model of users and profiles: the semantics of docs/users.md in the plainest Java there is, with
 * no store, no lock and no journal. Users form a forest (each merged user has the user it was merged into); every
 * profile has a home (the user it was created under or moved to by hand) and is under the root of its home's tree.
 * Each operation answers what the service must answer: done, with what it moved, or refused, with the problem type.
 * Tests run random sequences of operations on it and on the service and compare them after every step.
 */
public final class UsersModel {

    /** The limits the model keeps, as the service's settings say. */
    public record Limits(int maxProfilesPerUser, int maxMergeSources, int maxMergedUsers) {
    }

    /**
     * What an operation answers: {@code status} and, refused, the problem type; done, what it made ({@code pid} and
     * {@code uid} of a create, {@code id} of a merge), moved ({@code moved}: a merge's pids by source, an unmerge's
     * by the source they went back to), left ({@code skipped}: pid to "erased" or "moved") and the versions it gave.
     */
    public record Answer(int status, String problem, UUID pid, UUID uid, UUID id, Map<UUID, Set<UUID>> moved,
            Map<UUID, String> skipped, Map<UUID, Long> versions) {

        public static Answer refused(int status, String problem) {
            return new Answer(status, problem, null, null, null, Map.of(), Map.of(), Map.of());
        }

        /**
         * No answer: the instance was killed while it ran the operation ({@code id}), and the recovery completed it. Its
         * end is compared with the model's, its answer is not.
         */
        public static Answer interrupted(UUID id) {
            return new Answer(0, "interrupted", null, null, id, Map.of(), Map.of(), Map.of());
        }

        public boolean interrupted() {
            return status == 0;
        }

        public static Answer ok(int status) {
            return new Answer(status, null, null, null, null, Map.of(), Map.of(), Map.of());
        }

        /** The same answer without what only the service makes up (ids), for comparing with the model's. */
        public Answer comparable() {
            return new Answer(status, problem, null, null, null, moved, skipped, versions);
        }

        public boolean done() {
            return status > 0 && status < 300;
        }

        /** The answer's kind: its status and problem, for comparing with the service's. */
        public String kind() {
            return problem == null ? String.valueOf(status) : status + " " + problem;
        }
    }

    /** A user as the service shows it: the root answered for it, and the profiles under that root with their versions. */
    public record Shown(UUID uid, Map<UUID, Long> versions) {
    }

    private record Profile(UUID home, long version) {
    }

    /** A merge: its target, its sources, what it moved from each source (pid and the pid's home then), undone sources. */
    private record Merge(UUID id, UUID target, List<UUID> sources, Map<UUID, Map<UUID, UUID>> moved, Set<UUID> undone) {
    }

    private final Limits limits;
    private final Set<UUID> users = new LinkedHashSet<>();
    private final Map<UUID, UUID> parent = new HashMap<>();
    private final Map<UUID, Profile> profiles = new LinkedHashMap<>();
    private final List<Merge> merges = new ArrayList<>();

    public UsersModel(Limits limits) {
        this.limits = limits;
    }

    /** An independent copy, to try several orders of the same operations from one state. */
    public UsersModel copy() {
        var copy = new UsersModel(limits);
        copy.users.addAll(users);
        copy.parent.putAll(parent);
        copy.profiles.putAll(profiles);
        for (var merge : merges) {
            var moved = new LinkedHashMap<UUID, Map<UUID, UUID>>();
            merge.moved().forEach((source, pids) -> moved.put(source, new LinkedHashMap<>(pids)));
            copy.merges.add(new Merge(merge.id(), merge.target(), merge.sources(), moved, new HashSet<>(merge.undone())));
        }
        return copy;
    }

    /** The users, in the order they were made. */
    public List<UUID> users() {
        return List.copyOf(users);
    }

    public Set<UUID> pids() {
        return Set.copyOf(profiles.keySet());
    }

    public UUID root(UUID uid) {
        UUID at = uid;
        while (parent.containsKey(at)) {
            at = parent.get(at);
        }
        return at;
    }

    /** The merges that can be undone now, as (target, source). */
    public List<UUID[]> undoable() {
        var found = new ArrayList<UUID[]>();
        for (var merge : merges) {
            for (var source : merge.sources()) {
                if (!merge.undone().contains(source)) {
                    found.add(new UUID[] {merge.target(), source});
                }
            }
        }
        return found;
    }

    /** The merges recorded, oldest first, as (target, id). */
    public List<UUID[]> mergesDone() {
        return merges.stream().map(merge -> new UUID[] {merge.target(), merge.id()}).toList();
    }

    public Shown user(UUID uid) {
        if (!users.contains(uid)) {
            return null;
        }
        UUID root = root(uid);
        var versions = new TreeMap<UUID, Long>();
        under(root).forEach(pid -> versions.put(pid, profiles.get(pid).version()));
        return new Shown(root, versions);
    }

    /** Where a profile is and its version; null once erased. */
    public Map.Entry<UUID, Long> profile(UUID pid) {
        var profile = profiles.get(pid);
        return profile == null ? null : Map.entry(root(profile.home()), profile.version());
    }

    private Set<UUID> under(UUID root) {
        var pids = new LinkedHashSet<UUID>();
        profiles.forEach((pid, profile) -> {
            if (root(profile.home()).equals(root)) {
                pids.add(pid);
            }
        });
        return pids;
    }

    /** A profile made under {@code uid}, or under a new user {@code newUser} when uid is null. */
    public Answer create(UUID pid, UUID uid, UUID newUser) {
        UUID home = uid;
        if (uid == null) {
            users.add(newUser);
            home = newUser;
        } else if (!users.contains(uid)) {
            return Answer.refused(422, "user-not-found");
        } else if (parent.containsKey(uid)) {
            return Answer.refused(409, "user-merged");
        } else if (under(uid).size() + 1 > limits.maxProfilesPerUser()) {
            return Answer.refused(422, "user-full");
        }
        profiles.put(pid, new Profile(home, 1));
        return new Answer(201, null, pid, home, null, Map.of(), Map.of(), Map.of(pid, 1L));
    }

    public Answer erase(UUID pid, long ifMatch) {
        var profile = profiles.get(pid);
        if (profile == null) {
            return Answer.refused(404, "profile-not-found");
        }
        if (profile.version() != ifMatch) {
            return Answer.refused(412, "stale-version");
        }
        profiles.remove(pid);
        return Answer.ok(204);
    }

    /** Moved by hand: the target is the profile's home from then on. */
    public Answer move(UUID pid, long ifMatch, UUID target) {
        var profile = profiles.get(pid);
        if (profile == null) {
            return Answer.refused(404, "profile-not-found");
        }
        if (profile.version() != ifMatch) {
            return Answer.refused(412, "stale-version");
        }
        if (!users.contains(target)) {
            return Answer.refused(422, "user-not-found");
        }
        if (parent.containsKey(target)) {
            return Answer.refused(409, "user-merged");
        }
        UUID from = root(profile.home());
        if (target.equals(from) && target.equals(profile.home())) {
            return new Answer(200, null, pid, from, null, Map.of(), Map.of(), Map.of(pid, profile.version()));
        }
        if (!target.equals(from) && under(target).size() + 1 > limits.maxProfilesPerUser()) {
            return Answer.refused(422, "user-full");
        }
        profiles.put(pid, new Profile(target, profile.version() + 1));
        return new Answer(200, null, pid, target, null, Map.of(), Map.of(), Map.of(pid, profile.version() + 1));
    }

    public Answer merge(UUID id, UUID target, List<UUID> sources) {
        if (sources.isEmpty() || sources.size() > limits.maxMergeSources() || sources.stream().anyMatch(s -> s == null)
                || new HashSet<>(sources).size() != sources.size() || sources.contains(target)) {
            return Answer.refused(400, "invalid-request");
        }
        if (!users.contains(target)) {
            return Answer.refused(422, "user-not-found");
        }
        if (parent.containsKey(target)) {
            return Answer.refused(409, "user-merged");
        }
        for (var source : sources) {
            if (!users.contains(source)) {
                return Answer.refused(422, "user-not-found");
            }
            if (parent.containsKey(source)) {
                return Answer.refused(409, "conflict");
            }
        }
        int treeSize = tree(target).size() + sources.stream().mapToInt(source -> tree(source).size()).sum();
        if (treeSize > limits.maxMergedUsers()) {
            return Answer.refused(422, "merge-too-large");
        }
        int holding = under(target).size() + sources.stream().mapToInt(source -> under(source).size()).sum();
        if (holding > limits.maxProfilesPerUser()) {
            return Answer.refused(422, "user-full");
        }
        var moved = new LinkedHashMap<UUID, Map<UUID, UUID>>();
        var answered = new LinkedHashMap<UUID, Set<UUID>>();
        var versions = new TreeMap<UUID, Long>();
        for (var source : sources) {
            var pids = new LinkedHashMap<UUID, UUID>();
            for (var pid : under(source)) {
                var profile = profiles.get(pid);
                pids.put(pid, profile.home());
                profiles.put(pid, new Profile(profile.home(), profile.version() + 1));
                versions.put(pid, profile.version() + 1);
            }
            moved.put(source, pids);
            if (!pids.isEmpty()) {
                answered.put(source, pids.keySet());
            }
            parent.put(source, target);
        }
        merges.add(new Merge(id, target, List.copyOf(sources), moved, new HashSet<>()));
        return new Answer(200, null, null, target, id, answered, Map.of(), versions);
    }

    /** Undoes the latest merge of {@code source} into {@code target} not undone yet. */
    public Answer unmerge(UUID target, UUID source) {
        for (int i = merges.size() - 1; i >= 0; i--) {
            var merge = merges.get(i);
            if (merge.target().equals(target) && merge.sources().contains(source)) {
                if (merge.undone().contains(source)) {
                    break;
                }
                return undo(merge, List.of(source));
            }
        }
        return Answer.refused(404, "merge-not-found");
    }

    /** Undoes every source of a merge not undone yet. */
    public Answer unmergeById(UUID target, UUID mergeId) {
        for (var merge : merges) {
            if (merge.id().equals(mergeId) && merge.target().equals(target)) {
                var left = merge.sources().stream().filter(s -> !merge.undone().contains(s)).toList();
                return left.isEmpty() ? Answer.refused(404, "merge-not-found") : undo(merge, left);
            }
        }
        return Answer.refused(404, "merge-not-found");
    }

    private Answer undo(Merge merge, List<UUID> sources) {
        var restored = new LinkedHashMap<UUID, Set<UUID>>();
        var skipped = new TreeMap<UUID, String>();
        var versions = new TreeMap<UUID, Long>();
        for (var source : sources) {
            parent.remove(source);
            merge.undone().add(source);
            var back = under(source);
            for (var pid : back) {
                var profile = profiles.get(pid);
                profiles.put(pid, new Profile(profile.home(), profile.version() + 1));
                versions.put(pid, profile.version() + 1);
            }
            if (!back.isEmpty()) {
                restored.put(source, back);
            }
            merge.moved().get(source).forEach((pid, home) -> {
                var profile = profiles.get(pid);
                if (profile == null) {
                    skipped.put(pid, "erased");
                } else if (!profile.home().equals(home)) {
                    skipped.put(pid, "moved");
                }
            });
        }
        return new Answer(200, null, null, merge.target(), merge.id(), restored, skipped, versions);
    }

    /** The users of a user's tree: itself and every user merged into it, directly or not. */
    private Set<UUID> tree(UUID top) {
        var found = new LinkedHashSet<UUID>(List.of(top));
        boolean grew = true;
        while (grew) {
            grew = false;
            for (var entry : parent.entrySet()) {
                if (found.contains(entry.getValue()) && found.add(entry.getKey())) {
                    grew = true;
                }
            }
        }
        return found;
    }
}
