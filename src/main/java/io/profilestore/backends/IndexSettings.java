package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The per-environment part of the index settings; everything else (analysis, mappings) comes from
 * {@code es-mappings/}. One primary and no replica on a developer's single node; four and one in production.
 */
public class IndexSettings {

    @Min(1)
    @Max(64)
    private int shards = 1;

    @Min(0)
    @Max(5)
    private int replicas = 0;

    @JsonProperty
    public int getShards() {
        return shards;
    }

    @JsonProperty
    public void setShards(int shards) {
        this.shards = shards;
    }

    @JsonProperty
    public int getReplicas() {
        return replicas;
    }

    @JsonProperty
    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }
}
