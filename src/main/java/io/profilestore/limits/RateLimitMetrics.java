package io.profilestore.limits;

import io.profilestore.auth.Caller;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rate_limit_requests_total{caller, kind, outcome}}: the limited requests, allowed and limited, by the
 * credential's name (never its token) and kind of request. The callers are bounded, so that the series are: an API
 * key has a label of its own (its name is configured), as do the first {@code labelledSubjects} JWT subjects seen
 * since start; further subjects are counted together as {@code other}.
 */
public final class RateLimitMetrics {

    public static final String NAME = "rate_limit_requests";
    static final String OTHER = "other";

    private final Counter requests;
    private final int labelledSubjects;
    private final Set<String> subjects = ConcurrentHashMap.newKeySet();

    public RateLimitMetrics(PrometheusRegistry registry, int labelledSubjects) {
        this.labelledSubjects = labelledSubjects;
        this.requests = Counter.builder()
                .name(NAME)
                .help("Requests subject to a caller's rate limit (reads and searches), by outcome: allowed or limited "
                        + "(answered 429)")
                .labelNames("caller", "kind", "outcome")
                .register(registry);
        // the series exist from the start, at 0: an alert's rate() sees the first refusal, and its metric is there
        for (var kind : RequestKind.values()) {
            requests.initLabelValues(OTHER, kind.label(), "allowed");
            requests.initLabelValues(OTHER, kind.label(), "limited");
        }
    }

    public void count(Caller caller, RequestKind kind, boolean allowed) {
        requests.labelValues(label(caller), kind.label(), allowed ? "allowed" : "limited").inc();
    }

    /** The caller's label: its name, or {@code other} for a JWT subject past the bound. */
    String label(Caller caller) {
        if (caller.kind() != Caller.Kind.JWT) {
            return caller.name();
        }
        String subject = caller.name();
        if (subjects.contains(subject)) {
            return subject;
        }
        // a race may admit a few more than the bound at once; never many, and never after it is full
        if (subjects.size() < labelledSubjects && subjects.add(subject)) {
            return subject;
        }
        return OTHER;
    }
}
