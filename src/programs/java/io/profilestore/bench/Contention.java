package io.profilestore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The contention scenario's clients: a few hot profiles, several clients on each, and every request sends the
 * version its client last learned from its own answers (a 200's new version, or the current version a 412 names).
 * A client whose profile another client wrote since gets 412; two requests at once on one profile, 409 for one of
 * them (its lock is taken). Both are what such clients meet, not errors.
 */
final class Contention {

    static final int HOT_PROFILES = 5;
    static final int CLIENTS_PER_PROFILE = 4;
    /** The answers the scenario expects beside 200: locked, and stale-version. */
    static final Set<Integer> OUTCOMES = Set.of(409, 412);

    /** One client of one profile, and the version it last learned. */
    static final class Client {

        final UUID pid;
        private final AtomicLong seen;

        Client(UUID pid, long version) {
            this.pid = pid;
            this.seen = new AtomicLong(version);
        }

        /** The version this client believes its profile has: the one it sends. */
        long seen() {
            return seen.get();
        }

        /**
         * What the answer to a request that sent {@code sent} tells the client: a 200, that it wrote version
         * {@code sent + 1}; a 412, the version now ({@code currentVersions} of the problem). Answers may come out of
         * order, and versions only grow: the client keeps the highest it heard of.
         */
        void learn(int status, long sent, JsonNode problem) {
            if (status == 200) {
                seen.accumulateAndGet(sent + 1, Math::max);
            } else if (status == 412 && problem != null) {
                long current = problem.path("currentVersions").path(pid.toString()).asLong(0);
                seen.accumulateAndGet(current, Math::max);
            }
        }
    }

    private final List<Client> clients = new ArrayList<>();

    /** {@code perProfile} clients on each profile, each knowing {@code version}. */
    Contention(List<UUID> pids, long version, int perProfile) {
        for (var pid : pids) {
            for (int i = 0; i < perProfile; i++) {
                clients.add(new Client(pid, version));
            }
        }
    }

    List<Client> clients() {
        return List.copyOf(clients);
    }

    /** The client that sends the next request: any of them, at random. */
    Client pick(RandomGenerator random) {
        return clients.get(random.nextInt(clients.size()));
    }
}
