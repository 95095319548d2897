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

/**
 * The rate limits' counter: a machine's by its credential's name, with a bounded number of JWT subjects, then other;
 * people together, since {@code /prometheus} needs no token and a person's series would be a timeline of their work.
 */
class RateLimitMetricsTest {

    final PrometheusRegistry registry = new PrometheusRegistry();

    static Caller subject(String name) {
        return Caller.machine(name, Caller.Kind.JWT, Set.of(Role.PLATFORM));
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
        metrics.count(subject("card-processing"), RequestKind.READ, false);
        assertThat(series()).containsEntry("key:processing-platform read allowed", 2.0)
                .containsEntry("key:processing-platform search limited", 1.0)
                .containsEntry("jwt:card-processing read limited", 1.0)
                // there from the start, at 0
                .containsEntry("other search limited", 0.0)
                .containsEntry("other read allowed", 0.0);
    }

    @Test
    void peopleAreCountedTogetherNeverByName() {
        var metrics = new RateLimitMetrics(registry, 10);
        metrics.count(new Caller("anna.operator@bank.example", Caller.Kind.JWT, Set.of(Role.OPERATOR)), RequestKind.READ,
                false);
        metrics.count(new Caller("vera", Caller.Kind.API_KEY, Set.of(Role.ADMIN)), RequestKind.READ, true);
        metrics.count(new Caller("data-steward", Caller.Kind.JWT, Set.of(Role.PLATFORM)), RequestKind.SEARCH, true);

        assertThat(series()).containsEntry("person read limited", 1.0).containsEntry("person read allowed", 1.0)
                .containsEntry("person search allowed", 1.0).containsEntry("person search limited", 0.0);
        assertThat(series().keySet()).noneMatch(s -> s.contains("anna") || s.contains("vera")
                || s.contains("data-steward"));
    }

    /** A key and a subject of one name, or a key named as a group is, never share a series. */
    @Test
    void aKeyASubjectAndAGroupOfOneNameAreToldApart() {
        var metrics = new RateLimitMetrics(registry, 10);
        metrics.count(Caller.machine("other", Caller.Kind.API_KEY, Set.of(Role.PLATFORM)), RequestKind.READ, true);
        metrics.count(Caller.machine("person", Caller.Kind.API_KEY, Set.of(Role.PLATFORM)), RequestKind.READ, true);
        metrics.count(subject("other"), RequestKind.READ, true);

        assertThat(series()).containsEntry("key:other read allowed", 1.0).containsEntry("key:person read allowed", 1.0)
                .containsEntry("jwt:other read allowed", 1.0).containsEntry("other read allowed", 0.0)
                .containsEntry("person read allowed", 0.0);
    }

    @Test
    void jwtSubjectsPastTheBoundAreOther() {
        var metrics = new RateLimitMetrics(registry, 3);
        for (int i = 0; i < 50; i++) {
            metrics.count(subject("subject-" + i), RequestKind.SEARCH, true);
        }
        metrics.count(subject("subject-1"), RequestKind.SEARCH, true);
        var callers = series().keySet().stream().map(s -> s.split(" ")[0]).distinct().toList();
        assertThat(callers).containsExactlyInAnyOrder("jwt:subject-0", "jwt:subject-1", "jwt:subject-2", "other", "person");
        assertThat(series()).containsEntry("jwt:subject-1 search allowed", 2.0).containsEntry("other search allowed", 47.0);
    }
}
