package io.profilestore.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.faults.WorkloadHttp.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Many clients changing and reading a small set of profiles and users at once (so that they collide), through
 * both API instances as a load balancer would send them, every request and answer recorded in the history.
 */
final class Workload {

    static final ObjectMapper JSON = new ObjectMapper();

    /** What the clients know of a profile (a hint to aim requests; the checker trusts only the history). */
    record Known(UUID uid, long version) {
    }

    /** A merge that was acknowledged, to be undone now and then. */
    record Merge(UUID target, UUID source) {
    }

    private final List<Instance> apis;
    private final long runStart;
    private final WorkloadHttp client;
    private final ConcurrentLinkedQueue<Event> history = new ConcurrentLinkedQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentHashMap<UUID, Known> profiles = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<UUID> users = new CopyOnWriteArrayList<>();
    private final CopyOnWriteArrayList<Merge> merges = new CopyOnWriteArrayList<>();
    /** From when (ns since the run began) the clients mostly merge and unmerge; never by default. */
    private volatile long mergeHeavyFrom = Long.MAX_VALUE;

    /** First names the writes take in turn, so that the index's content can be checked, not only its versions. */
    private static final List<String> FIRST_NAMES = List.of("Anna", "Olga", "Irina", "Maria", "Vera");

    Workload(List<Instance> apis, long runStart) {
        this.apis = apis;
        this.runStart = runStart;
        this.client = new WorkloadHttp(runStart);
    }

    /** From this time (since the run began) to the end, most requests are merges and unmerges of the same few users. */
    void mergeHeavyFrom(Duration from) {
        mergeHeavyFrom = from.toNanos();
    }

    List<Event> history() {
        return history.stream().sorted(Comparator.comparingLong(Event::id)).toList();
    }

    /** Every profile the history names (a create without an answer made one nobody knows of). */
    Set<UUID> knownPids() {
        var pids = new HashSet<UUID>();
        history.forEach(e -> pids.addAll(e.pids()));
        return pids;
    }

    /** A first set of users and profiles to work on, made before any fault. */
    void seed(int users, int profilesPerUser) {
        var client = new Client(-1, new SplittableRandom(1));
        for (int u = 0; u < users; u++) {
            UUID uid = null;
            for (int p = 0; p < profilesPerUser; p++) {
                uid = client.create(uid);
            }
        }
    }

    /** Runs the clients for at least {@code duration}, and on until {@code done} says so (the last fault healed). */
    void run(int clients, long seed, Duration duration, BooleanSupplier done)
            throws InterruptedException {
        var pool = Executors.newFixedThreadPool(clients);
        long deadline = System.nanoTime() + duration.toNanos();
        for (int i = 0; i < clients; i++) {
            var client = new Client(i, new SplittableRandom(seed * 1_000_003L + i));
            pool.submit(() -> {
                while (System.nanoTime() < deadline || !done.getAsBoolean()) {
                    client.step();
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(duration.toSeconds() + 1800, TimeUnit.SECONDS)) {
            pool.shutdownNow();
            throw new IllegalStateException("the workload's clients did not end within 30 minutes of its end");
        }
    }

    private final class Client {
        private final int number;
        private final SplittableRandom random;
        private long writes;
        private int turn;

        Client(int number, SplittableRandom random) {
            this.number = number;
            this.random = random;
        }

        void step() {
            if (profiles.isEmpty() || users.size() < 2) {
                create(null);
                return;
            }
            long now = System.nanoTime() - runStart;
            boolean mergeHeavy = now > mergeHeavyFrom;
            try {
                switch (WorkloadMix.pick(random, mergeHeavy ? WorkloadMix.MERGE_HEAVY : WorkloadMix.USUAL)) {
                    case "create" -> create(random.nextBoolean() ? null : anyUser());
                    case "put" -> replace(anyProfile(), false);
                    case "patch" -> replace(anyProfile(), true);
                    case "batchUpdate" -> batchUpdate();
                    case "erase" -> erase(anyProfile());
                    case "move" -> move(anyProfile(), anyUser());
                    case "merge" -> merge();
                    case "unmerge" -> unmerge();
                    default -> read(anyProfile());
                }
            } catch (RuntimeException e) {
                // a client's own mistake must not end it; the history has what it sent
            }
        }

        UUID anyProfile() {
            var pids = new ArrayList<>(profiles.keySet());
            return pids.get(random.nextInt(pids.size()));
        }

        UUID anyUser() {
            return users.get(random.nextInt(users.size()));
        }

        String nextWrite() {
            return "c" + number + "-" + (++writes);
        }

        String firstName(String write) {
            return FIRST_NAMES.get(Math.floorMod(write.hashCode(), FIRST_NAMES.size()));
        }

        ObjectNode data(String write) {
            var data = JSON.createObjectNode();
            data.put("w", write);
            data.put("surname", "Faultova");
            data.put("firstName", firstName(write));
            return data;
        }

        UUID create(UUID under) {
            var write = nextWrite();
            var body = JSON.createObjectNode();
            if (under != null) {
                body.put("uid", under.toString());
            }
            body.set("data", data(write));
            var answer = send("POST", "/v1/profiles", "application/json", body.toString(), null);
            UUID pid = null;
            UUID uid = under;
            if (answer.status() == 201) {
                pid = UUID.fromString(answer.json().path("pid").asText());
                uid = UUID.fromString(answer.json().path("uid").asText());
                profiles.put(pid, new Known(uid, 1));
                if (under == null) {
                    users.add(uid);
                }
            }
            var writes = pid == null ? Map.<UUID, String>of() : Map.of(pid, write);
            record("create", answer, pid == null ? List.of() : List.of(pid), uid, null, null, writes,
                    pid == null ? Map.of() : Map.of(pid, 1L), List.of(), write, Map.of(), null, Map.of());
            return uid;
        }

        void replace(UUID pid, boolean patch) {
            var known = profiles.get(pid);
            if (known == null) {
                return;
            }
            var write = nextWrite();
            String body;
            String type;
            if (patch) {
                var merge = JSON.createObjectNode();
                merge.put("w", write);
                merge.put("firstName", firstName(write));
                merge.put("n", random.nextInt(1000));
                body = merge.toString();
                type = "application/merge-patch+json";
            } else {
                var replace = JSON.createObjectNode();
                replace.set("data", data(write));
                body = replace.toString();
                type = "application/json";
            }
            var answer = send(patch ? "PATCH" : "PUT", "/v1/profiles/" + pid, type, body, known.version());
            learn(pid, answer);
            record(patch ? "patch" : "put", answer, List.of(pid), null, null, known.version(), Map.of(pid, write),
                    answer.status() == 200 ? Map.of(pid, answer.version()) : Map.of(), List.of());
        }

        void batchUpdate() {
            var chosen = new LinkedHashMap<UUID, Known>();
            for (int i = 0; i < 2 + random.nextInt(2); i++) {
                var pid = anyProfile();
                var known = profiles.get(pid);
                if (known != null) {
                    chosen.put(pid, known);
                }
            }
            var updates = JSON.createArrayNode();
            var writes = new HashMap<UUID, String>();
            chosen.forEach((pid, known) -> {
                var write = nextWrite();
                writes.put(pid, write);
                var update = updates.addObject();
                update.put("pid", pid.toString());
                update.put("version", known.version());
                update.set("data", data(write));
            });
            var body = JSON.createObjectNode();
            body.set("updates", updates);
            var answer = send("POST", "/v1/profiles:batchUpdate", "application/json", body.toString(), null);
            var versions = new HashMap<UUID, Long>();
            if (answer.status() == 200) {
                for (var updated : answer.json().path("updated")) {
                    var pid = UUID.fromString(updated.path("pid").asText());
                    versions.put(pid, updated.path("version").asLong());
                    profiles.computeIfPresent(pid, (p, k) -> new Known(k.uid(), updated.path("version").asLong()));
                }
            } else if (answer.status() == 412) {
                answer.json().path("currentVersions").fields().forEachRemaining(v ->
                        profiles.computeIfPresent(UUID.fromString(v.getKey()), (p, k) -> new Known(k.uid(), v.getValue().asLong())));
            }
            var expected = new HashMap<UUID, Long>();
            chosen.forEach((pid, known) -> expected.put(pid, known.version()));
            record("batchUpdate", answer, List.copyOf(chosen.keySet()), null, null, null, writes, versions, List.of(),
                    null, expected, null, Map.of());
        }

        void erase(UUID pid) {
            var known = profiles.get(pid);
            if (known == null) {
                return;
            }
            var answer = send("DELETE", "/v1/profiles/" + pid, null, null, known.version());
            if (answer.status() == 204) {
                profiles.remove(pid);
            } else {
                learn(pid, answer);
            }
            record("erase", answer, List.of(pid), null, null, known.version(), Map.of(), Map.of(), List.of());
        }

        void move(UUID pid, UUID target) {
            var known = profiles.get(pid);
            if (known == null) {
                return;
            }
            var body = JSON.createObjectNode().put("uid", target.toString()).toString();
            var answer = send("PUT", "/v1/profiles/" + pid + "/user", "application/json", body, known.version());
            learn(pid, answer);
            record("move", answer, List.of(pid), target, null, known.version(), Map.of(),
                    answer.status() == 200 ? Map.of(pid, answer.version()) : Map.of(), List.of());
        }

        void merge() {
            var target = anyUser();
            var source = anyUser();
            if (target.equals(source)) {
                return;
            }
            var body = JSON.createObjectNode();
            body.putArray("sources").add(source.toString());
            var answer = send("POST", "/v1/users/" + target + "/merge", "application/json", body.toString(), null);
            var moved = new ArrayList<UUID>();
            var versions = answer.versions();
            if (answer.status() == 200) {
                answer.json().path("moved").forEach(list -> list.forEach(pid -> moved.add(UUID.fromString(pid.asText()))));
                merges.add(new Merge(target, source));
                versions.forEach((pid, version) -> profiles.computeIfPresent(pid, (p, k) -> new Known(target, version)));
            }
            record("merge", answer, List.of(), target, source, null, Map.of(), versions, moved, null, Map.of(),
                    answer.operationId("mergeId"), Map.of());
        }

        void unmerge() {
            if (merges.isEmpty()) {
                return;
            }
            var merge = merges.get(random.nextInt(merges.size()));
            var body = JSON.createObjectNode().put("source", merge.source().toString()).toString();
            var answer = send("POST", "/v1/users/" + merge.target() + "/unmerge", "application/json", body, null);
            var moved = new ArrayList<UUID>();
            var versions = answer.versions();
            if (answer.status() == 200) {
                merges.remove(merge);
                answer.json().path("restored").forEach(list -> list.forEach(pid -> moved.add(UUID.fromString(pid.asText()))));
                versions.forEach((pid, version) -> profiles.computeIfPresent(pid, (p, k) -> new Known(merge.source(), version)));
            } else if (answer.status() == 404) {
                merges.remove(merge); // undone by another client, or never applied
            }
            record("unmerge", answer, List.of(), merge.target(), merge.source(), null, Map.of(), versions, moved, null,
                    Map.of(), answer.operationId("unmergeId"), Map.of());
        }

        void read(UUID pid) {
            var answer = send("GET", "/v1/profiles/" + pid, null, null, null);
            learn(pid, answer);
            var ok = answer.status() == 200;
            var seen = ok ? answer.json().path("data").path("w").asText(null) : null;
            record("read", answer, List.of(pid), ok ? UUID.fromString(answer.json().path("uid").asText()) : null, null, null,
                    Map.of(), ok ? Map.of(pid, answer.version()) : Map.of(), List.of(), null, Map.of(), null,
                    seen == null ? Map.of() : Map.of(pid, seen));
        }

        /** What an answer says of a profile's version and user, for the next request to aim right. */
        void learn(UUID pid, Answer answer) {
            if (answer.status() == 200) {
                var uid = answer.json().path("uid").asText(null);
                profiles.computeIfPresent(pid, (p, k) -> new Known(uid == null ? k.uid() : UUID.fromString(uid), answer.version()));
            } else if (answer.status() == 412) {
                var current = answer.json().path("currentVersions").path(pid.toString());
                if (current.isNumber()) {
                    profiles.computeIfPresent(pid, (p, k) -> new Known(k.uid(), current.asLong()));
                }
            } else if (answer.status() == 404 && "profile-not-found".equals(answer.problem())) {
                profiles.remove(pid);
            }
        }

        /**
         * Sends to the next instance in turn; one that refuses the connection (down, starting) is passed over for
         * the other, as a load balancer does: the history records both attempts.
         */
        Answer send(String method, String path, String contentType, String body, Long ifMatch) {
            var instance = apis.get(Math.floorMod(number + turn++, apis.size()));
            var answer = client.send(instance, method, path, contentType, body, ifMatch);
            if (answer.notSent()) {
                failedAttempt(method, answer);
                answer = client.send(apis.get(Math.floorMod(number + turn++, apis.size())), method, path, contentType, body, ifMatch);
            }
            return answer;
        }

        /** A request that never left (the connection was refused): recorded as what it is, nothing happened. */
        void failedAttempt(String method, Answer answer) {
            history.add(new Event(ids.incrementAndGet(), number, "GET".equals(method) ? "read" : "refused", answer.instance(),
                    answer.start(), answer.end(), List.of(), null, null, null, 0, null, Event.FAILED, Map.of(), Map.of(), List.of(),
                    null, Map.of(), null, Map.of(), answer.requestId(), List.of()));
        }

        void record(String op, Answer answer, List<UUID> pids, UUID uid, UUID source, Long ifMatch,
                Map<UUID, String> writes, Map<UUID, Long> versions, List<UUID> moved) {
            record(op, answer, pids, uid, source, ifMatch, writes, versions, moved, null, Map.of(), null, Map.of());
        }

        void record(String op, Answer answer, List<UUID> pids, UUID uid, UUID source, Long ifMatch,
                Map<UUID, String> writes, Map<UUID, Long> versions, List<UUID> moved, String write,
                Map<UUID, Long> expected, UUID opId, Map<UUID, String> seen) {
            history.add(new Event(ids.incrementAndGet(), number, op, answer.instance(), answer.start(), answer.end(), pids, uid,
                    source, ifMatch, answer.status(), answer.problem(), answer.outcome(op), writes, versions, moved, write,
                    expected, opId, seen, answer.requestId(), op.equals("unmerge") ? answer.skipped() : List.of()));
        }

    }

}
