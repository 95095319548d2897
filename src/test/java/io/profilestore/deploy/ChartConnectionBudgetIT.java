package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connection budget: every PostgreSQL pool of a rendering, at its largest, fits in the server's max_connections
 * less the reserve (values postgres.*), and a rendering that would not fit is refused with the sum and the limit.
 * The sum is counted here from what Helm rendered, apart from the chart's own arithmetic
 * (templates/connection-budget.yaml): each workload's pool is the maxPoolSize of the ConfigMap it mounts, times the
 * most pods it can have.
 */
class ChartConnectionBudgetIT {

    /** The pool migrate opens as the tables' owner for Flyway, besides its own (PostgresFactory.buildForMigration). */
    static final int FLYWAY_POOL = 3;

    /** One workload's share of the budget. */
    record Share(String workload, int pool, int pods) {
        int connections() {
            return pool * pods;
        }
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void everyRenderingsPoolsFitTheServersConnections(Values values) {
        var shares = shares(Charts.documents(values));
        assertThat(shares).extracting(Share::workload)
                .contains("Deployment profile-store-api", "Deployment profile-store-indexer", "Job profile-store-migrate",
                        "CronJob profile-store-reconcile", "CronJob profile-store-check-tables");
        assertThat(total(shares)).as("%s: %s", values, shares).isLessThanOrEqualTo(limit(values));
    }

    @Test
    void productionFitsTwoHundredConnectionsAtTheAutoscalersMaximum() {
        var docs = Charts.documents(Values.PRODUCTION);
        var values = Charts.values(Values.PRODUCTION);
        assertThat(values.path("postgres").path("maxConnections").asInt()).isEqualTo(200);
        var shares = shares(docs);
        // 12 API pods at the autoscaler's maximum and one surging in a rollout, 10 connections each
        assertThat(shares).contains(new Share("Deployment profile-store-api", 10, 13),
                new Share("Deployment profile-store-indexer", 2, 3),
                new Share("Job profile-store-migrate", 2 + FLYWAY_POOL, 1),
                new Share("CronJob profile-store-reconcile", 3, 1),
                new Share("CronJob profile-store-check-tables", 3, 1));
        assertThat(total(shares)).isEqualTo(147).isLessThanOrEqualTo(limit(Values.PRODUCTION));
    }

    @Test
    void anAutoscalerMaximumPastTheBudgetIsRefusedWithTheSumAndTheLimit() {
        var shares = shares(Charts.documents(Values.PRODUCTION));
        var api = shares.stream().filter(s -> s.workload().equals("Deployment profile-store-api")).findFirst().orElseThrow();
        int limit = limit(Values.PRODUCTION);
        int maxReplicas = Charts.values(Values.PRODUCTION).path("api").path("autoscaling").path("maxReplicas").asInt();
        // the most API pods the spare connections allow: that many render, one more does not
        int fits = maxReplicas + (limit - total(shares)) / api.pool();

        var fitting = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("api.autoscaling.maxReplicas", fits)));
        assertThat(total(shares(fitting))).isLessThanOrEqualTo(limit);

        int needed = total(shares) + (fits + 1 - maxReplicas) * api.pool();
        assertThat(needed).isGreaterThan(limit);
        assertThatThrownBy(() -> Charts.template(Values.PRODUCTION, Map.of("api.autoscaling.maxReplicas", fits + 1)))
                .hasMessageContaining("PostgreSQL connection budget exceeded")
                .hasMessageContaining("need up to " + needed + " connections")
                .hasMessageContaining("postgres.maxConnections 200 less postgres.reservedConnections 20 leaves " + limit)
                .hasMessageContaining("api.autoscaling.maxReplicas " + (fits + 1));
    }

    @Test
    void withoutTheAutoscalerTheApisReplicasCount() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("api.autoscaling.enabled", false,
                "api.replicas", 12)))
                .hasMessageContaining("PostgreSQL connection budget exceeded")
                .hasMessageContaining("api.replicas 12");
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of("api.autoscaling.enabled", false, "api.replicas", 3)));
        assertThat(shares(docs)).contains(new Share("Deployment profile-store-api", 10, 4));
    }

    @Test
    void aSmallerServerRefusesTheProductionPools() {
        assertThatThrownBy(() -> Charts.template(Values.PRODUCTION, Map.of("postgres.maxConnections", 100)))
                .hasMessageContaining("need up to " + total(shares(Charts.documents(Values.PRODUCTION))) + " connections")
                .hasMessageContaining("leaves 80");
    }

    /**
     * The chart's limit is not above what the server really allows: the max_connections that flux/ gives
     * CloudNativePG's cluster of each environment. Without one, PostgreSQL's default of 100 applies; production's
     * is set by flux/infrastructure/instances/base/postgres.yaml (spec.postgresql.parameters.max_connections).
     */
    @ParameterizedTest
    @EnumSource(value = Values.class, names = {"STAGING", "PRODUCTION"})
    void theChartsLimitIsNotAboveTheServersMaxConnections(Values values) {
        String env = values.name().toLowerCase();
        var instances = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/instances/" + env)));
        var server = maxConnections(Charts.named(instances, "Cluster", "profiles-pg"));
        int chart = Charts.values(values).path("postgres").path("maxConnections").asInt();
        if (values == Values.PRODUCTION) {
            assertThat(server).as("production sets max_connections in flux/infrastructure/instances/base/postgres.yaml")
                    .isPresent();
        }
        assertThat(chart).as("%s: the chart's postgres.maxConnections against the server's max_connections", env)
                .isLessThanOrEqualTo(server.orElse(100));
    }

    private static OptionalInt maxConnections(JsonNode cluster) {
        var value = cluster.path("spec").path("postgresql").path("parameters").path("max_connections");
        return value.isMissingNode() ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(value.asText()));
    }

    /** postgres.maxConnections less postgres.reservedConnections of a value set. */
    static int limit(Values values) {
        var postgres = Charts.values(values).path("postgres");
        return postgres.path("maxConnections").asInt() - postgres.path("reservedConnections").asInt();
    }

    static int total(List<Share> shares) {
        return shares.stream().mapToInt(Share::connections).sum();
    }

    /**
     * Every workload of a rendering that connects to PostgreSQL, with its pool (the maxPoolSize of the ConfigMap it
     * mounts) and the most pods it can have: a Deployment at its autoscaler's maximum (its replicas without one) and
     * the pods a rollout adds (maxSurge); a Job or a CronJob one pod at a time; migrate with Flyway's pool besides.
     */
    static List<Share> shares(List<JsonNode> docs) {
        var shares = new ArrayList<Share>();
        for (var deployment : Charts.ofKind(docs, "Deployment")) {
            String name = deployment.path("metadata").path("name").asText();
            var autoscaler = Charts.ofKind(docs, "HorizontalPodAutoscaler").stream()
                    .filter(h -> h.path("spec").path("scaleTargetRef").path("name").asText().equals(name)).findFirst();
            int pods = autoscaler.map(h -> h.path("spec").path("maxReplicas").asInt())
                    .orElseGet(() -> deployment.path("spec").path("replicas").asInt());
            var surge = deployment.path("spec").path("strategy").path("rollingUpdate").path("maxSurge");
            assertThat(surge.isInt()).as("%s maxSurge is a number of pods", name).isTrue();
            var pod = deployment.path("spec").path("template").path("spec");
            shares.add(new Share("Deployment " + name, pool(docs, pod), pods + surge.asInt()));
        }
        for (var job : Charts.ofKind(docs, "Job")) {
            var spec = job.path("spec");
            assertThat(spec.path("parallelism").asInt(1)).isEqualTo(1);
            var pod = spec.path("template").path("spec");
            boolean migrate = pod.path("containers").get(0).path("args").toString().contains("\"migrate\"");
            shares.add(new Share("Job " + job.path("metadata").path("name").asText(),
                    pool(docs, pod) + (migrate ? FLYWAY_POOL : 0), 1));
        }
        for (var cronJob : Charts.ofKind(docs, "CronJob")) {
            var spec = cronJob.path("spec");
            assertThat(spec.path("concurrencyPolicy").asText()).as("one run at a time").isEqualTo("Forbid");
            var job = spec.path("jobTemplate").path("spec");
            assertThat(job.path("parallelism").asInt(1)).isEqualTo(1);
            shares.add(new Share("CronJob " + cronJob.path("metadata").path("name").asText(),
                    pool(docs, job.path("template").path("spec")), 1));
        }
        return shares;
    }

    /** The PostgreSQL pool of a pod: postgres.maxPoolSize of the service's YAML in the ConfigMap it mounts. */
    private static int pool(List<JsonNode> docs, JsonNode pod) {
        var names = new ArrayList<String>();
        pod.path("volumes").forEach(v -> {
            if (v.has("configMap")) {
                names.add(v.path("configMap").path("name").asText());
            }
        });
        assertThat(names).hasSize(1);
        var yaml = Charts.named(docs, "ConfigMap", names.get(0)).path("data").path("profile-store.yml").asText();
        try {
            var pool = Charts.YAML.readTree(yaml).path("postgres").path("maxPoolSize");
            assertThat(pool.isInt()).as("ConfigMap %s sets postgres.maxPoolSize", names.get(0)).isTrue();
            return pool.asInt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
