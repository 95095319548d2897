package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Replication of the keyspace, applied when {@code migrate} creates it: {@code SimpleStrategy} with one replica on a
 * developer's single node, {@code NetworkTopologyStrategy} with three replicas per data center in production.
 */
public class ReplicationSettings {

    public enum Strategy { SimpleStrategy, NetworkTopologyStrategy }

    @NotNull
    public Strategy strategy = Strategy.SimpleStrategy;

    @Min(1)
    public int replicationFactor = 1;

    /** Data center name to replica count; used by {@code NetworkTopologyStrategy} only. */
    @JsonSetter(nulls = Nulls.AS_EMPTY)
    public Map<String, Integer> dataCenters = Map.of();

    /** A check, not a setting: written out with the defaults, it would be a field that reading refuses. */
    @JsonIgnore
    @AssertTrue(message = "NetworkTopologyStrategy needs dataCenters with at least one data center of one or more replicas")
    public boolean isDataCentersValidForStrategy() {
        return strategy != Strategy.NetworkTopologyStrategy
                || (!dataCenters.isEmpty() && dataCenters.values().stream().allMatch(n -> n != null && n > 0));
    }

    /** The CQL map literal for {@code CREATE KEYSPACE ... WITH replication = ...}. */
    public String toCql() {
        if (strategy == Strategy.SimpleStrategy) {
            return "{'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}";
        }
        return dataCenters.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> "'" + e.getKey().replace("'", "''") + "': " + e.getValue())
                .collect(Collectors.joining(", ", "{'class': 'NetworkTopologyStrategy', ", "}"));
    }
}
