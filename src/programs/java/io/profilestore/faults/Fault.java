package io.profilestore.faults;

import io.profilestore.stack.LocalStack.Service;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A fault the suite injects while the workload runs: what breaks, for how long, and how it heals. Their order and
 * targets come from the seed.
 */
enum Fault {
    CASSANDRA_NODE_KILLED("kill -9 one Cassandra node, start it again", Duration.ofSeconds(20)),
    CASSANDRA_NODE_FROZEN("SIGSTOP one Cassandra node for longer than the request timeout", Duration.ofSeconds(8)),
    API_KILLED("kill -9 an API process in the middle of requests, start it again", Duration.ofSeconds(3)),
    API_FROZEN("SIGSTOP an API process past its lock lease (a paused writer)", Duration.ofSeconds(8)),
    POSTGRES_RESTARTED("stop PostgreSQL and start it again", Duration.ofSeconds(6)),
    /**
     * A crash, not a stop: a fast shutdown writes out every asynchronous commit (taking and releasing locks commit so,
     * docs/design/write-path.md, "Locks") and a checkpoint; kill -9 of the whole server loses what it had not written
     * yet, and it starts again by recovering from its log.
     */
    POSTGRES_KILLED("kill -9 the PostgreSQL server, start it again on its data", Duration.ofSeconds(6)),
    RABBITMQ_RESTARTED("stop RabbitMQ and start it again", Duration.ofSeconds(8)),
    ELASTICSEARCH_RESTARTED("stop Elasticsearch and start it again", Duration.ofSeconds(10)),
    INDEXER_STOPPED("stop the indexer for a while, start it again", Duration.ofSeconds(15)),
    CASSANDRA_PARTITIONED("cut one Cassandra node off from the other two and from the clients (nftables)",
            Duration.ofSeconds(15)),
    API_PARTITIONED_FROM_POSTGRES("cut an API process off from PostgreSQL while it holds leases (nftables)",
            Duration.ofSeconds(10)),
    POSTGRES_FAILOVER("kill -9 the PostgreSQL primary, promote its synchronous standby", Duration.ofSeconds(0));

    final String description;
    final Duration length;

    Fault(String description, Duration length) {
        this.description = description;
        this.length = length;
    }

    /** Whether it cuts processes off from each other (nftables rules, as root). */
    boolean partitions() {
        return this == CASSANDRA_PARTITIONED || this == API_PARTITIONED_FROM_POSTGRES;
    }

    /** One fault as it was injected: which target, and when it began and healed (ns since the run began). */
    record Injected(Fault fault, String target, long start, long healed) {
    }

    /** The faults of a run: every kind in an order from the seed, again and again until {@code budget} is used. */
    static List<Fault> plan(long seed, Duration budget, boolean quick) {
        var random = new SplittableRandom(seed);
        var kinds = quick ? List.of(CASSANDRA_NODE_KILLED, API_KILLED, API_FROZEN, POSTGRES_KILLED)
                : Arrays.stream(values()).filter(f -> f != POSTGRES_FAILOVER).toList();
        var plan = new ArrayList<Fault>();
        long used = 0;
        while (used < budget.toSeconds() || plan.size() < kinds.size()) {
            var round = new ArrayList<>(kinds);
            for (int i = round.size() - 1; i > 0; i--) {
                var swap = random.nextInt(i + 1);
                var kept = round.get(i);
                round.set(i, round.get(swap));
                round.set(swap, kept);
            }
            for (var fault : round) {
                plan.add(fault);
                used += fault.length.toSeconds() + 25; // the fault, its healing, and a quiet spell after it
            }
            if (quick) {
                break;
            }
        }
        if (!quick) {
            plan.add(POSTGRES_FAILOVER); // last: the old primary is gone for good after it
        }
        return plan;
    }

    /** Injects the fault, keeps it for its length, heals it; returns what was done and when. */
    Injected inject(Cluster cluster, SplittableRandom random, long runStart) throws Exception {
        long start = System.nanoTime() - runStart;
        String target;
        switch (this) {
            case CASSANDRA_NODE_KILLED -> {
                int node = 1 + random.nextInt(3);
                target = "cassandra node " + node;
                cluster.stack.killCassandraNode(node);
                hold();
                cluster.stack.startCassandraNode(node);
            }
            case CASSANDRA_NODE_FROZEN -> {
                int node = 1 + random.nextInt(3);
                target = "cassandra node " + node;
                cluster.stack.freezeCassandraNode(node);
                try {
                    hold();
                } finally {
                    cluster.stack.thawCassandraNode(node);
                }
            }
            case API_KILLED -> {
                var api = cluster.apis.get(random.nextInt(cluster.apis.size()));
                target = api.name();
                api.kill();
                hold();
                api.start();
            }
            case API_FROZEN -> {
                var api = cluster.apis.get(random.nextInt(cluster.apis.size()));
                target = api.name();
                api.freeze();
                try {
                    hold();
                } finally {
                    api.thaw();
                }
            }
            case CASSANDRA_PARTITIONED -> {
                int node = 1 + random.nextInt(3);
                target = "cassandra node " + node;
                cluster.partitions.isolate(cluster.stack.cassandraNodePid(node).orElseThrow(), "127.0.0." + node);
                try {
                    hold();
                } finally {
                    cluster.partitions.heal();
                }
            }
            case API_PARTITIONED_FROM_POSTGRES -> {
                var api = cluster.apis.get(random.nextInt(cluster.apis.size()));
                target = api.name() + " from postgres";
                cluster.partitions.cutFromPorts(api.pid(), cluster.postgresPorts());
                try {
                    hold();
                } finally {
                    cluster.partitions.heal();
                }
            }
            case POSTGRES_RESTARTED -> target = restart(cluster, Service.POSTGRES);
            case POSTGRES_KILLED -> {
                target = "postgres";
                try (var crash = cluster.stack.crash(Service.POSTGRES)) {
                    hold();
                }
            }
            case RABBITMQ_RESTARTED -> target = restart(cluster, Service.RABBITMQ);
            case ELASTICSEARCH_RESTARTED -> target = restart(cluster, Service.ELASTICSEARCH);
            case POSTGRES_FAILOVER -> {
                target = "postgres primary -> standby";
                cluster.standby.killPrimaryAndPromote();
            }
            case INDEXER_STOPPED -> {
                target = cluster.indexer.name();
                cluster.indexer.stop();
                hold();
                cluster.indexer.start();
            }
            default -> throw new IllegalStateException(name());
        }
        return new Injected(this, target, start, System.nanoTime() - runStart);
    }

    private String restart(Cluster cluster, Service service) throws InterruptedException {
        try (var outage = cluster.stack.outage(service)) {
            hold();
        }
        return service.name().toLowerCase();
    }

    /** The fault lasts this long: a duration of the schedule, not a wait for something to happen. */
    private void hold() throws InterruptedException {
        Thread.sleep(length.toMillis());
    }
}
