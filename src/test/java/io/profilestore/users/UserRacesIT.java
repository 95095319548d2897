package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Merges racing with profile edits and with each other, and a merge killed midway: afterwards every profile
 * belongs to exactly one user, every uid_pid row matches its profile, and no edit was lost.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UserRacesIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.recoveryDelay", "2s"),
                    ConfigOverride.config("profiles.lockLease", "3s")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    /** Users with two profiles each, every profile a counter at 0. */
    Map<UUID, List<UUID>> users(int count) {
        var users = new HashMap<UUID, List<UUID>>();
        for (int i = 0; i < count; i++) {
            var first = api.create("{\"counter\": 0}");
            var uid = UUID.fromString(first.json().path("uid").asText());
            var second = api.createFor(uid, "{\"counter\": 0}");
            users.put(uid, List.of(first.pid(), second.pid()));
        }
        return users;
    }

    /** Every profile is in exactly one of the users' uid_pid partitions, the one its row names. */
    static void assertConsistent(Map<UUID, List<UUID>> users, Api api) {
        var pids = users.values().stream().flatMap(List::stream).toList();
        var listedUnder = new HashMap<UUID, List<UUID>>();
        for (UUID uid : users.keySet()) {
            for (UUID pid : Stores.pidsOfUser(uid)) {
                listedUnder.computeIfAbsent(pid, p -> new ArrayList<>()).add(uid);
            }
        }
        for (UUID pid : pids) {
            var row = api.get(pid).json();
            var owner = UUID.fromString(row.path("uid").asText());
            assertThat(listedUnder.get(pid)).as("uid_pid of profile %s", pid).containsExactly(owner);
            var holder = api.user(owner).json();
            assertThat(holder.path("uid").asText()).as("the owner of %s is no merged user", pid).isEqualTo(owner.toString());
        }
        assertThat(listedUnder.keySet()).as("no uid_pid row of a profile we do not know").containsExactlyInAnyOrderElementsOf(pids);
    }

    /**
     * The refusals a race may bring, by their problem type: not any 404 or 409 (a 404 user-not-found, say, would
     * be a bug, not a lost race). No 422 either: eight users of two profiles each never fill one.
     */
    static boolean refusedInARace(Api.Reply reply) {
        String type = reply.json().path("type").asText();
        String slug = type.substring(type.lastIndexOf('/') + 1);
        return switch (reply.status()) {
            case 409 -> List.of("locked", "conflict", "user-merged").contains(slug);
            case 412 -> slug.equals("stale-version");
            case 404 -> slug.equals("merge-not-found");
            default -> false;
        };
    }

    @Test
    void mergesRacingWithEditsAndWithEachOtherLoseNothing() throws Exception {
        var users = users(8);
        var uids = new ArrayList<>(users.keySet());
        var pids = users.values().stream().flatMap(List::stream).toList();
        var accepted = new ConcurrentHashMap<UUID, AtomicLong>();
        pids.forEach(pid -> accepted.put(pid, new AtomicLong()));
        var merges = new AtomicInteger();
        var unmerges = new AtomicInteger();
        var failures = new ConcurrentLinkedQueue<String>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            var runs = new ArrayList<CompletableFuture<Void>>();
            for (int e = 0; e < 7; e++) {
                runs.add(CompletableFuture.runAsync(() -> {
                    while (System.nanoTime() < until && failures.isEmpty()) {
                        var pid = pids.get(ThreadLocalRandom.current().nextInt(pids.size()));
                        var read = api.get(pid);
                        long counter = read.json().path("data").path("counter").asLong();
                        var write = api.put(pid, read.etag(), "{\"counter\": " + (counter + 1) + "}");
                        if (write.status() == 200) {
                            accepted.get(pid).incrementAndGet();
                        } else if (!refusedInARace(write)) {
                            failures.add("edit: " + write.status() + " " + write.body());
                        }
                    }
                }, pool));
            }
            for (int m = 0; m < 3; m++) {
                runs.add(CompletableFuture.runAsync(() -> {
                    var random = ThreadLocalRandom.current();
                    while (System.nanoTime() < until && failures.isEmpty()) {
                        var target = uids.get(random.nextInt(uids.size()));
                        var source = uids.get(random.nextInt(uids.size()));
                        if (target.equals(source)) {
                            continue;
                        }
                        var reply = random.nextInt(3) == 0 ? api.unmerge(target, source) : api.merge(target, source);
                        if (reply.status() == 200) {
                            (reply.body().contains("\"restored\"") ? unmerges : merges).incrementAndGet();
                        } else if (!refusedInARace(reply)) {
                            failures.add("merge: " + reply.status() + " " + reply.body());
                        }
                    }
                }, pool));
            }
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }

        assertThat(failures).isEmpty();
        assertThat(merges.get()).as("merges went through").isPositive();
        assertThat(accepted.values().stream().mapToLong(AtomicLong::get).sum()).as("edits went through").isPositive();
        assertConsistent(users, api);
        for (UUID pid : pids) {
            var row = api.get(pid);
            assertThat(row.json().path("data").path("counter").asLong()).as("no edit of %s lost", pid)
                    .isEqualTo(accepted.get(pid).get());
        }
        System.out.println("races: " + merges + " merges, " + unmerges + " unmerges, "
                + accepted.values().stream().mapToLong(AtomicLong::get).sum() + " edits");
    }

    /** Kills an instance holding a merge at the step; the merge was recorded, and maybe written. */
    static void killDuringMerge(UUID target, UUID source, String step) throws Exception {
        killDuring(step, api -> api.merge(target, source));
    }

    /** Kills an instance holding an unmerge at the step; the unmerge was recorded, and maybe written. */
    static void killDuringUnmerge(UUID target, UUID source, String step) throws Exception {
        killDuring(step, api -> api.unmerge(target, source));
    }

    /**
     * The doomed instance's own recovery waits an hour: it holds the first change that reaches the step, which must be
     * the request's, not the recovery's resume of an operation an earlier kill left pending.
     */
    private static void killDuring(String step, Consumer<Api> operation) throws Exception {
        try (var doomed = ServiceProcess.start(null, Map.of("PROFILE_STORE_TEST_HOLD_AT", step,
                "PROFILE_STORE_LOCK_LEASE", "3s", "JAVA_TOOL_OPTIONS", "-Ddw.users.recoveryDelay=1h"))) {
            CompletableFuture.runAsync(() -> operation.accept(doomed.api()));
            doomed.awaitLine("HELD " + step, Duration.ofSeconds(30));
            doomed.kill();
        }
    }

    @Test
    void aMergeKilledBeforeItWasWrittenIsCompletedByTheRecovery() throws Exception {
        var users = users(2);
        var uids = new ArrayList<>(users.keySet());
        var target = uids.get(0);
        var source = uids.get(1);

        killDuringMerge(target, source, "recorded");

        await("the recovery to complete the merge").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> api.user(source).json().path("uid").asText().equals(target.toString()));
        assertConsistent(users, api);
        for (UUID pid : users.get(source)) {
            assertThat(api.get(pid).version()).as("moved once: one version more").isEqualTo(2);
        }
        assertThat(Stores.operationStates(target)).containsExactly("applied");
        assertThat(api.unmerge(target, source).status()).as("and it can be undone").isEqualTo(200);
        assertConsistent(users, api);
    }

    @Test
    void aMergeKilledAfterItWasWrittenIsMarkedAppliedByTheRecovery() throws Exception {
        var users = users(2);
        var uids = new ArrayList<>(users.keySet());
        var target = uids.get(0);
        var source = uids.get(1);

        killDuringMerge(target, source, "written");

        assertThat(api.user(source).json().path("uid").asText()).isEqualTo(target.toString());
        await("the recovery to mark the merge applied").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> Stores.operationStates(target).equals(List.of("applied")));
        assertConsistent(users, api);
        for (UUID pid : users.get(source)) {
            assertThat(api.get(pid).version()).isEqualTo(2);
        }
    }
}
