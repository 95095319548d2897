package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonProperty;
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
    private Strategy strategy = Strategy.SimpleStrategy;

    @Min(1)
    private int replicationFactor = 1;

    /** Data center name to replica count; used by {@code NetworkTopologyStrategy} only. */
    private Map<String, Integer> dataCenters = Map.of();

    @JsonProperty
    public Strategy getStrategy() {
        return strategy;
    }

    @JsonProperty
    public void setStrategy(Strategy strategy) {
        this.strategy = strategy;
    }

    @JsonProperty
    public int getReplicationFactor() {
        return replicationFactor;
    }

    @JsonProperty
    public void setReplicationFactor(int replicationFactor) {
        this.replicationFactor = replicationFactor;
    }

    @JsonProperty
    public Map<String, Integer> getDataCenters() {
        return dataCenters;
    }

    @JsonProperty
    public void setDataCenters(Map<String, Integer> dataCenters) {
        this.dataCenters = dataCenters == null ? Map.of() : dataCenters;
    }

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
