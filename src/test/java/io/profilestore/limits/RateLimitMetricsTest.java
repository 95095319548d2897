package io.profilestore.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The rate limits' counter: by the credential's name, with a bounded number of JWT subjects, then other. */
class RateLimitMetricsTest {

    final PrometheusRegistry registry = new PrometheusRegistry();

    static Caller subject(String name) {
        return new Caller(name, Caller.Kind.JWT, Set.of(Role.OPERATOR));
    }

    /** Every series: "caller kind outcome" to its count. */
    Map<String, Double> series() {
        var series = new TreeMap<String, Double>();
        for (var snapshot : registry.scrape()) {
            if (snapshot.getMetadata().getPrometheusName().equals("rate_limit_requests")) {
                for (var point : ((CounterSnapshot) snapshot).getDataPoints()) {
                    var labels = point.getLabels();
                    series.put(labels.get("caller") + " " + labels.get("kind") + " " + labels.get("outcome"), point.getValue());
                }
            }
        }
        return series;
    }

    @Test
    void countsByCallerNameKindAndOutcome() {
        var metrics = new RateLimitMetrics(registry, 10);
        var key = Caller.machine("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM));
        metrics.count(key, RequestKind.READ, true);
        metrics.count(key, RequestKind.READ, true);
        metrics.count(key, RequestKind.SEARCH, false);
        metrics.count(subject("anna"), RequestKind.READ, false);
        assertThat(series()).containsEntry("processing-platform read allowed", 2.0)
                .containsEntry("processing-platform search limited", 1.0)
                .containsEntry("anna read limited", 1.0)
                // there from the start, at 0
                .containsEntry("other search limited", 0.0)
                .containsEntry("other read allowed", 0.0);
    }

    @Test
    void jwtSubjectsPastTheBoundAreOther() {
        var metrics = new RateLimitMetrics(registry, 3);
        for (int i = 0; i < 50; i++) {
            metrics.count(subject("subject-" + i), RequestKind.SEARCH, true);
        }
        metrics.count(subject("subject-1"), RequestKind.SEARCH, true);
        var callers = series().keySet().stream().map(s -> s.split(" ")[0]).distinct().toList();
        assertThat(callers).containsExactlyInAnyOrder("subject-0", "subject-1", "subject-2", "other");
        assertThat(series()).containsEntry("subject-1 search allowed", 2.0).containsEntry("other search allowed", 47.0);
    }
}
