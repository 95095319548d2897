package io.profilestore.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * When the faults of a plan come: one after another, and in the full run some two at once, the second struck while
 * the first still holds (a Cassandra node down while an API process is frozen, PostgreSQL killed while a Cassandra
 * node is cut off). Production's faults do not wait for each other; recovering from one while another holds is its
 * own case (an API restart that needs PostgreSQL, a merge's recovery while a node is cut off). Which faults overlap,
 * and by how much, comes from the seed; the quick run has them one at a time.
 */
final class FaultSchedule {

    /** Of the pairs of neighbours that may overlap, about one in this many does. */
    private static final int ONE_IN = 3;

    /** What a fault breaks: two faults overlap only when they break different things. */
    private enum Part { CASSANDRA, API, POSTGRES, RABBITMQ, ELASTICSEARCH, INDEXER, NFTABLES }

    /**
     * Faults struck together: {@code first}, and {@code second} (or none) {@code after} the first was struck, while
     * the first still holds.
     */
    record Step(Fault first, Fault second, Duration after) {

        static Step alone(Fault fault) {
            return new Step(fault, null, Duration.ZERO);
        }

        List<Fault> faults() {
            return second == null ? List.of(first) : List.of(first, second);
        }

        @Override
        public String toString() {
            return second == null ? first.name() : first + " + " + second + " " + after.toMillis() / 100 / 10.0 + " s later";
        }
    }

    private FaultSchedule() {
    }

    static List<Step> of(List<Fault> plan, long seed, boolean quick) {
        var random = new SplittableRandom(seed * 31 + 7); // apart from the plan's own draws
        var steps = new ArrayList<Step>();
        for (int i = 0; i < plan.size(); i++) {
            var fault = plan.get(i);
            if (!quick && i + 1 < plan.size() && canOverlap(fault, plan.get(i + 1)) && random.nextInt(ONE_IN) == 0) {
                // struck while the first holds: within its length (an API kill's 3 s, a partition's 15 s)
                long within = Math.max(1_000, fault.length.toMillis());
                steps.add(new Step(fault, plan.get(i + 1), Duration.ofMillis(random.nextLong(within))));
                i++;
            } else {
                steps.add(Step.alone(fault));
            }
        }
        return steps;
    }

    /**
     * Whether two faults may be struck together: they break different things, and neither is the failover (the end
     * of the old primary, last), nor are both partitions (one nftables table, healed whole).
     */
    static boolean canOverlap(Fault a, Fault b) {
        if (a == Fault.POSTGRES_FAILOVER || b == Fault.POSTGRES_FAILOVER) {
            return false;
        }
        var both = EnumSet.copyOf(parts(a));
        both.retainAll(parts(b));
        return both.isEmpty();
    }

    private static Set<Part> parts(Fault fault) {
        return switch (fault) {
            case CASSANDRA_NODE_KILLED, CASSANDRA_NODE_FROZEN -> EnumSet.of(Part.CASSANDRA);
            case CASSANDRA_PARTITIONED -> EnumSet.of(Part.CASSANDRA, Part.NFTABLES);
            case API_KILLED, API_FROZEN -> EnumSet.of(Part.API);
            case API_PARTITIONED_FROM_POSTGRES -> EnumSet.of(Part.API, Part.POSTGRES, Part.NFTABLES);
            case POSTGRES_RESTARTED, POSTGRES_KILLED, POSTGRES_FAILOVER -> EnumSet.of(Part.POSTGRES);
            case RABBITMQ_RESTARTED -> EnumSet.of(Part.RABBITMQ);
            case ELASTICSEARCH_RESTARTED -> EnumSet.of(Part.ELASTICSEARCH);
            case INDEXER_STOPPED -> EnumSet.of(Part.INDEXER);
        };
    }
}
