package io.profilestore.limits;

import io.profilestore.auth.Caller;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code rate_limit_requests_total{caller, kind, outcome}}: the limited requests, allowed and limited, by caller
 * (never a token) and kind of request. People are counted together as {@code person}: {@code /prometheus} needs no
 * token, and a series of each person's would be a timeline of their work for whoever reaches the admin port (who is
 * held at a limit is the audit trail's to say, to an admin). Machines are bounded, so that the series are: a machine's
 * API key has a label of its own (its name is configured), as do the first {@code labelledSubjects} machine JWT
 * subjects seen since start; further subjects are counted together as {@code other}.
 */
public final class RateLimitMetrics {

    public static final String NAME = "rate_limit_requests";
    static final String OTHER = "other";
    static final String PEOPLE = "person";

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
            for (var caller : new String[] {OTHER, PEOPLE}) {
                requests.initLabelValues(caller, kind.label(), "allowed");
                requests.initLabelValues(caller, kind.label(), "limited");
            }
        }
    }

    public void count(Caller caller, RequestKind kind, boolean allowed) {
        requests.labelValues(label(caller), kind.label(), allowed ? "allowed" : "limited").inc();
    }

    /**
     * The caller's label: {@code person}; a machine's key as {@code key:<name>}, its JWT as {@code jwt:<subject>} (so
     * that a key and a subject of one name, or a key named {@code other}, never share a series); {@code other} for a
     * JWT subject past the bound.
     */
    String label(Caller caller) {
        if (!caller.isMachine()) {
            return PEOPLE;
        }
        if (caller.kind() != Caller.Kind.JWT) {
            return "key:" + caller.name();
        }
        String subject = caller.name();
        // a race may admit a few more than the bound at once; never many, and never after it is full
        if (subjects.contains(subject) || subjects.size() < labelledSubjects && subjects.add(subject)) {
            return "jwt:" + subject;
        }
        return OTHER;
    }
}
