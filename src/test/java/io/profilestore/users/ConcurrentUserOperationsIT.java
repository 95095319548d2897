package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestStack;
import io.profilestore.users.UsersModel.Answer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clients merging, unmerging and moving on overlapping users at once: in each round three operations start
 * together, and their answers and the state they leave must be what some serial order of them gives on the model.
 * An operation refused as {@code locked} changed nothing, so it is in no order.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConcurrentUserOperationsIT {

    static final UsersModel.Limits LIMITS = UsersModelTest.LIMITS;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.maxProfilesPerUser", String.valueOf(LIMITS.maxProfilesPerUser())),
                    ConfigOverride.config("users.maxMergeSources", String.valueOf(LIMITS.maxMergeSources())),
                    ConfigOverride.config("users.maxMergedUsers", String.valueOf(LIMITS.maxMergedUsers()))));

    /** One operation of a round: what it does to the system and, told the system's answer, to a model. */
    record Operation(String name, Function<UsersUnderTest, Answer> onSystem, OnModel onModel) {
    }

    interface OnModel {
        Answer apply(UsersModel model, Answer systemAnswer);
    }

    @Test
    void everyRoundOfConcurrentOperationsAgreesWithSomeSerialOrder() throws Exception {
        var system = new UsersOverHttp(new Api(APP.getLocalPort()));
        var random = new SplittableRandom(27);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        int rounds = 0;
        int orderedTwoOrMore = 0;
        int lockedOut = 0;
        try {
            for (int group = 0; group < 4; group++) {
                var model = new UsersModel(LIMITS);
                var users = new ArrayList<UUID>();
                for (int i = 0; i < 5; i++) {
                    var created = system.create(null);
                    model.create(created.pid(), null, created.uid());
                    users.add(created.uid());
                }
                for (int round = 0; round < 40; round++) {
                    var operations = new ArrayList<Operation>();
                    for (int i = 0; i < 3; i++) {
                        operations.add(operation(random, model, users));
                    }
                    var answers = runTogether(pool, system, operations);
                    var applied = new ArrayList<Operation>();
                    var appliedAnswers = new ArrayList<Answer>();
                    for (int i = 0; i < operations.size(); i++) {
                        if (lostRace(operations.get(i), answers.get(i))) {
                            lockedOut++;
                        } else {
                            applied.add(operations.get(i));
                            appliedAnswers.add(answers.get(i));
                        }
                    }
                    var shown = users.stream().map(system::user).toList();
                    model = serialOrder(model, users, applied, appliedAnswers, shown);
                    rounds++;
                    var userOps = applied.stream().filter(o -> !o.name().startsWith("move")).toList();
                    if (userOps.size() >= 2 && shareAUser(userOps)) {
                        orderedTwoOrMore++;
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("concurrent users: " + rounds + " rounds, " + orderedTwoOrMore + " with two or more merges"
                + " or unmerges of a user in common applied together, " + lockedOut
                + " operations that lost a race (nothing changed)");
        assertThat(orderedTwoOrMore).as("rounds where operations on one user really ran together").isGreaterThan(5);
        assertThat(lockedOut).as("rounds where they collided").isGreaterThan(10);
    }

    /** Whether two of these merges and unmerges name a user in common (their names hold the uids). */
    private static boolean shareAUser(List<Operation> operations) {
        var seen = new HashSet<String>();
        for (var operation : operations) {
            var uids = Pattern.compile("[0-9a-f-]{36}").matcher(operation.name()).results()
                    .map(MatchResult::group).distinct().toList();
            for (var uid : uids) {
                if (!seen.add(uid)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A refusal that says another request got there first and nothing was changed, retry: the locks were taken, or
     * (a move) the profile moved to another user between the request's look at it and its locks. It is in no order.
     */
    private static boolean lostRace(Operation operation, Answer answer) {
        return "locked".equals(answer.problem()) || operation.name().startsWith("move") && "conflict".equals(answer.problem());
    }

    /** A merge, an unmerge or a move among the group's users, possible or not. */
    private static Operation operation(SplittableRandom random, UsersModel model, List<UUID> users) {
        UUID a = users.get(random.nextInt(users.size()));
        UUID b = users.get(random.nextInt(users.size()));
        int dice = random.nextInt(10);
        var undoable = model.undoable();
        if (dice < 4 || dice < 7 && undoable.isEmpty()) {
            return new Operation("merge " + b + " into " + a, s -> s.merge(a, List.of(b)),
                    (m, got) -> m.merge(got.done() ? got.id() : UUID.randomUUID(), a, List.of(b)));
        }
        if (dice < 7) {
            var pair = undoable.get(random.nextInt(undoable.size()));
            return new Operation("unmerge " + pair[1] + " from " + pair[0], s -> s.unmerge(pair[0], pair[1]),
                    (m, got) -> m.unmerge(pair[0], pair[1]));
        }
        var pids = new ArrayList<>(model.pids());
        pids.sort(null);
        UUID pid = pids.get(random.nextInt(pids.size()));
        long version = model.profile(pid).getValue();
        return new Operation("move " + pid + " to " + b, s -> s.move(pid, version, b), (m, got) -> m.move(pid, version, b));
    }

    /** Starts every operation at once and waits for their answers. */
    private static List<Answer> runTogether(ExecutorService pool, UsersUnderTest system, List<Operation> operations)
            throws Exception {
        var start = new CountDownLatch(1);
        var running = operations.stream().map(operation -> CompletableFuture.supplyAsync(() -> {
            try {
                start.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return operation.onSystem().apply(system);
        }, pool)).toList();
        start.countDown();
        var answers = new ArrayList<Answer>();
        for (var answer : running) {
            answers.add(answer.get(1, TimeUnit.MINUTES));
        }
        return answers;
    }

    /**
     * The model after the first order of the operations whose answers and end state are the system's; fails when no
     * order gives them.
     */
    private static UsersModel serialOrder(UsersModel before, List<UUID> users, List<Operation> operations,
            List<Answer> answers, List<UsersModel.Shown> shown) {
        var tried = new ArrayList<String>();
        for (var order : orders(operations.size())) {
            var model = before.copy();
            boolean agrees = true;
            for (int i : order) {
                var expected = operations.get(i).onModel().apply(model, answers.get(i));
                if (!expected.comparable().equals(answers.get(i).comparable())) {
                    agrees = false;
                    break;
                }
            }
            if (agrees && users.stream().map(model::user).toList().equals(shown)) {
                return model;
            }
            tried.add(order.toString());
        }
        var described = new ArrayList<String>();
        for (int i = 0; i < operations.size(); i++) {
            described.add(operations.get(i).name() + " -> " + answers.get(i));
        }
        throw new AssertionError("no serial order of these concurrent operations gives what the service answered and"
                + " shows (orders tried: " + tried + "):\n  " + String.join("\n  ", described) + "\nshown: " + shown);
    }

    private static List<List<Integer>> orders(int n) {
        var all = new ArrayList<List<Integer>>();
        permute(new ArrayList<>(), n, all);
        return all;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> all) {
        if (prefix.size() == n) {
            all.add(List.copyOf(prefix));
            return;
        }
        for (int i = 0; i < n; i++) {
            if (!prefix.contains(i)) {
                prefix.add(i);
                permute(prefix, n, all);
                prefix.remove(prefix.size() - 1);
            }
        }
    }
}
