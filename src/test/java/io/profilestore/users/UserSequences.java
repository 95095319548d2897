package io.profilestore.users;

import io.profilestore.users.UsersModel.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Random sequences of creates, erases, moves, merges and unmerges, run on the model and on a system under test: after
 * every step the answers must agree, and so must every user the model knows (the root it answers with, the profiles
 * under it, their versions). A disagreement fails with the seed and the steps that led to it, so it can be replayed.
 */
final class UserSequences {

    /** What the sequences did, by operation and answer (e.g. "merge 200", "unmerge 404 merge-not-found"). */
    static final class Tally {
        final Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
        final AtomicLong sequences = new AtomicLong();
        final AtomicLong steps = new AtomicLong();
        /** Unmerges of a merge whose target was merged on since (the case that broke before). */
        final AtomicLong unmergesUnderALaterMerge = new AtomicLong();

        void count(String op, Answer answer) {
            answers.computeIfAbsent(op + " " + answer.kind(), k -> new AtomicLong()).incrementAndGet();
        }

        long of(String opAndKind) {
            var count = answers.get(opAndKind);
            return count == null ? 0 : count.get();
        }

        @Override
        public String toString() {
            return sequences + " sequences, " + steps + " steps, 0 disagreements; " + unmergesUnderALaterMerge
                    + " unmerges of a merge merged on since; " + new TreeMap<>(answers);
        }
    }

    private final UsersModel model;
    private final UsersUnderTest system;
    private final SplittableRandom random;
    private final Tally tally;
    private final long seed;
    private final List<String> done = new ArrayList<>();
    private final List<UUID> pidsEver = new ArrayList<>();

    private UserSequences(UsersModel model, UsersUnderTest system, long seed, Tally tally) {
        this.model = model;
        this.system = system;
        this.random = new SplittableRandom(seed);
        this.seed = seed;
        this.tally = tally;
    }

    /** One sequence: a few users with a profile or two, then {@code steps} random operations. */
    static void run(UsersModel model, UsersUnderTest system, long seed, int steps, Tally tally) {
        var sequence = new UserSequences(model, system, seed, tally);
        int users = 3 + sequence.random.nextInt(3);
        for (int i = 0; i < users; i++) {
            var first = sequence.create(null);
            if (sequence.random.nextBoolean() && first.done()) {
                sequence.create(first.uid());
            }
        }
        for (int i = 0; i < steps; i++) {
            sequence.step();
        }
        tally.sequences.incrementAndGet();
    }

    private void step() {
        int dice = random.nextInt(100);
        if (dice < 10) {
            create(random.nextBoolean() ? null : anyUser());
        } else if (dice < 17) {
            var pid = anyPid();
            long version = ifMatch(pid);
            check("erase " + pid + " at " + version, model.erase(pid, version), system.erase(pid, version));
        } else if (dice < 32) {
            var pid = anyPid();
            var target = anyUser();
            long version = ifMatch(pid);
            check("move " + pid + " at " + version + " to " + target, model.move(pid, version, target), system.move(pid, version, target));
        } else if (dice < 60) {
            merge();
        } else if (dice < 92) {
            unmerge();
        } else {
            var merges = model.mergesDone();
            if (!merges.isEmpty()) {
                var merge = merges.get(random.nextInt(merges.size()));
                check("unmergeById " + merge[1] + " from " + merge[0], model.unmergeById(merge[0], merge[1]),
                        system.unmergeById(merge[0], merge[1]));
            }
        }
    }

    private Answer create(UUID under) {
        var got = system.create(under);
        var expected = model.create(got.done() ? got.pid() : UUID.randomUUID(), under,
                got.done() && under == null ? got.uid() : UUID.randomUUID());
        check("create under " + under, expected, got);
        if (got.done()) {
            pidsEver.add(got.pid());
        }
        return got;
    }

    /** Mostly a merge that can be done (roots into a root); now and then one that cannot. */
    private void merge() {
        var roots = new ArrayList<>(model.users().stream().filter(uid -> model.root(uid).equals(uid)).toList());
        boolean possible = roots.size() >= 2 && random.nextInt(5) > 0;
        UUID target = possible ? roots.remove(random.nextInt(roots.size())) : anyUser();
        var sources = new ArrayList<UUID>();
        int count = random.nextInt(10) == 0 ? 3 : 1 + random.nextInt(2);
        for (int i = 0; i < count; i++) {
            if (possible && !roots.isEmpty()) {
                sources.add(roots.remove(random.nextInt(roots.size())));
            } else if (!possible) {
                sources.add(random.nextInt(8) == 0 ? target : anyUser());
            }
        }
        var got = system.merge(target, sources);
        var expected = model.merge(got.id() != null ? got.id() : UUID.randomUUID(), target, sources);
        check("merge " + sources + " into " + target, expected, got);
    }

    private void unmerge() {
        var undoable = model.undoable();
        UUID target;
        UUID source;
        if (!undoable.isEmpty() && random.nextInt(8) > 0) {
            // the older merges more often: those a later merge may have taken on
            var pair = undoable.get(Math.min(random.nextInt(undoable.size()), random.nextInt(undoable.size())));
            target = pair[0];
            source = pair[1];
            if (!model.root(target).equals(target)) {
                tally.unmergesUnderALaterMerge.incrementAndGet();
            }
        } else {
            target = anyUser();
            source = anyUser();
        }
        check("unmerge " + source + " from " + target, model.unmerge(target, source), system.unmerge(target, source));
    }

    /** The answers agree, and then so does every user. */
    private void check(String op, Answer expected, Answer got) {
        done.add(op + " -> " + got.kind());
        tally.steps.incrementAndGet();
        tally.count(op.substring(0, op.indexOf(' ')), got);
        if (got.interrupted() ? !expected.done() : !expected.comparable().equals(got.comparable())) {
            fail("answers differ: the model " + expected.comparable() + ", the system " + got.comparable());
        }
        got.skipped().values().forEach(why -> tally.answers.computeIfAbsent("skipped " + why, k -> new AtomicLong())
                .incrementAndGet());
        for (var uid : model.users()) {
            var want = model.user(uid);
            var have = system.user(uid);
            if (!want.equals(have)) {
                fail("user " + uid + ": the model shows " + want + ", the system " + have);
            }
        }
    }

    private void fail(String what) {
        throw new AssertionError("sequence of seed " + seed + ", after " + done.size() + " steps:\n  "
                + String.join("\n  ", done) + "\n" + what);
    }

    private UUID anyUser() {
        var users = model.users();
        return users.get(random.nextInt(users.size()));
    }

    private UUID anyPid() {
        return pidsEver.isEmpty() ? UUID.randomUUID() : pidsEver.get(random.nextInt(pidsEver.size()));
    }

    /** The version the model has (now and then one that is not), as a client that read it would send. */
    private long ifMatch(UUID pid) {
        var known = model.profile(pid);
        long version = known == null ? 1 : known.getValue();
        return random.nextInt(10) == 0 ? version + 1 : version;
    }
}
