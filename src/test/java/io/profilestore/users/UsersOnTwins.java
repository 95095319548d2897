package io.profilestore.users;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.Problem;
import io.profilestore.api.Profile;
import io.profilestore.change.Lease;
import io.profilestore.change.Origin;
import io.profilestore.change.WritePathProbe;
import io.profilestore.profiles.Documents;
import io.profilestore.profiles.ProfileService;
import io.profilestore.profiles.UserNotFoundException;
import io.profilestore.resources.problems.DomainExceptionMapper;
import io.profilestore.twins.InMemoryStores;
import io.profilestore.twins.InMemoryUserJournal;
import io.profilestore.users.UsersModel.Answer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The service itself ({@link ProfileService}, {@link UserService} and the write path), over the in-memory twins of its
 * stores: the same code an instance runs, thousands of sequences in seconds. Now and then (three in ten, given a seed)
 * a merge or unmerge is interrupted as a killed instance interrupts it, after its record and before its Cassandra write
 * or after the write and before it is marked applied; then the recovery resumes it, and it must end where it would have.
 */
final class UsersOnTwins implements UsersUnderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A killed instance: nothing after this point of the change runs. */
    private static final class Killed extends RuntimeException {
        Killed() {
            super("killed", null, false, false);
        }
    }

    private final InMemoryStores stores = new InMemoryStores();
    private final InMemoryUserJournal journal = new InMemoryUserJournal(stores.locks);
    private final ProfileService profiles;
    private final UserService users;
    private final SplittableRandom crashes;
    private final UserSequences.Tally tally;
    /** Where the change under way is killed: after its record, after its write, or not (null). */
    private String killAt;

    UsersOnTwins(UserSettings settings, Long seed, UserSequences.Tally tally) {
        var probe = new WritePathProbe() {
            @Override
            public void recorded(Lease lease) {
                killIf("recorded");
            }

            @Override
            public void written(Lease lease) {
                killIf("written");
            }
        };
        var changes = stores.changeRunner(probe);
        this.profiles = new ProfileService(stores.rows, changes, new Documents(JSON, 64 * 1024), 10,
                settings.maxProfilesPerUser);
        this.users = new UserService(stores.rows, changes, journal, settings);
        this.crashes = seed == null ? null : new SplittableRandom(seed);
        this.tally = tally;
    }

    private void killIf(String step) {
        if (step.equals(killAt)) {
            killAt = null;
            throw new Killed();
        }
    }

    @Override
    public Answer create(UUID under) {
        return answer(() -> {
            var created = profiles.create(origin(), under, JSON.createObjectNode());
            return new Answer(201, null, created.pid(), created.uid(), null, Map.of(), Map.of(),
                    Map.of(created.pid(), created.version()));
        });
    }

    @Override
    public Answer erase(UUID pid, long ifMatch) {
        return answer(() -> {
            profiles.erase(origin(), pid, ifMatch);
            return Answer.ok(204);
        });
    }

    @Override
    public Answer move(UUID pid, long ifMatch, UUID target) {
        return answer(() -> {
            var moved = users.move(origin(), pid, ifMatch, target);
            return new Answer(200, null, pid, moved.uid(), null, Map.of(), Map.of(), Map.of(pid, moved.version()));
        });
    }

    @Override
    public Answer merge(UUID target, List<UUID> sources) {
        return interruptible("merge", () -> {
            var merged = users.merge(origin(), target, sources);
            return new Answer(200, null, null, target, merged.mergeId(), sets(merged.moved()), Map.of(),
                    new TreeMap<>(merged.versions()));
        });
    }

    @Override
    public Answer unmerge(UUID target, UUID source) {
        return interruptible("unmerge", () -> undone(users.unmerge(origin(), target, source, null)));
    }

    @Override
    public Answer unmergeById(UUID target, UUID mergeId) {
        return interruptible("unmerge", () -> undone(users.unmerge(origin(), target, null, mergeId)));
    }

    private static Answer undone(io.profilestore.api.UserResults.Unmerged unmerged) {
        var skipped = new TreeMap<UUID, String>();
        unmerged.skipped().forEach(s -> skipped.put(s.pid(), s.uid() == null ? "erased" : "moved"));
        return new Answer(200, null, null, unmerged.uid(), unmerged.mergeId(), sets(unmerged.restored()), skipped,
                new TreeMap<>(unmerged.versions()));
    }

    /** {@code GET /v1/users/{uid}}: the root, and the profiles under it. */
    @Override
    public UsersModel.Shown user(UUID uid) {
        try {
            var user = users.get(uid);
            var versions = new TreeMap<UUID, Long>();
            user.profiles().forEach(profile -> versions.put(profile.pid(), profile.version()));
            return new UsersModel.Shown(user.uid(), versions);
        } catch (UserNotFoundException e) {
            return null;
        }
    }

    /**
     * An operation on users, killed now and then after its record or its write; then the recovery completes what the
     * journal holds pending. A killed operation's client gets no answer: the answer is the one it would have had, the
     * same the recovery's completion must match (its ids taken from the journal).
     */
    private Answer interruptible(String kind, Supplier<Answer> operation) {
        int crash = crashes == null ? 0 : crashes.nextInt(10);
        killAt = crash == 1 ? "recorded" : crash == 2 ? "written" : null;
        try {
            return answer(operation);
        } catch (Killed killed) {
            var pending = journal.pending(Duration.ZERO);
            for (var interrupted : pending) {
                users.resume(Origin.system("recovery", interrupted.requestId()), interrupted);
            }
            if (tally != null) {
                tally.answers.computeIfAbsent("resumed " + kind, k -> new AtomicLong()).incrementAndGet();
            }
            return Answer.interrupted(pending.get(pending.size() - 1).opId());
        } finally {
            killAt = null;
        }
    }

    private static Origin origin() {
        return InMemoryStores.testOrigin();
    }

    private static Map<UUID, Set<UUID>> sets(Map<UUID, List<UUID>> lists) {
        var sets = new LinkedHashMap<UUID, Set<UUID>>();
        lists.forEach((uid, pids) -> sets.put(uid, new LinkedHashSet<>(pids)));
        return sets;
    }

    /** An operation's answer; a refusal as the service's exception mapper makes it. */
    private static Answer answer(Supplier<Answer> operation) {
        try {
            return operation.get();
        } catch (Killed killed) {
            throw killed;
        } catch (RuntimeException e) {
            Problem problem = DomainExceptionMapper.problemOf(e);
            if (problem == null) {
                throw e;
            }
            return Answer.refused(problem.status(), problem.type().substring(Problem.TYPE_BASE.length()));
        }
    }

    /** The profile as stored now, for a test's look at its row. */
    Profile profile(UUID pid) {
        return profiles.get(pid);
    }
}
