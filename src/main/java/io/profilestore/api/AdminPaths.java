package io.profilestore.api;

import java.util.Set;

/** The admin port's paths that its own endpoints serve and its authentication leaves open to probes and scrapers. */
public final class AdminPaths {

    public static final String HEALTHCHECK = "/healthcheck";
    public static final String READY = "/ready";
    public static final String PING = "/ping";
    public static final String METRICS = "/metrics";
    public static final String PROMETHEUS = "/prometheus";

    /** What Kubernetes' probes and Prometheus ask for, with no credentials. */
    public static final Set<String> OPEN = Set.of(HEALTHCHECK, READY, PING, METRICS, PROMETHEUS);

    private AdminPaths() {
    }
}
