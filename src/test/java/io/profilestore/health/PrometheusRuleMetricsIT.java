package io.profilestore.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.deploy.AlertRules;
import io.profilestore.deploy.Charts;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.testing.TestStack;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart's alerts read metrics the service really exposes: every metric name in the expressions of the rendered
 * PrometheusRule (kube-state-metrics' kube_* and Prometheus' own up aside) has samples at the admin port's
 * /prometheus of the whole application on the stack, the API with the indexer in process, so both roles' metrics.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PrometheusRuleMetricsIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    @Test
    void everyMetricTheAlertsReadIsExposed() {
        var names = new TreeSet<String>();
        for (var values : List.of(Values.STAGING, Values.PRODUCTION)) {
            names.addAll(AlertRules.metricNames(Charts.parse(Charts.template(values, Map.of()))));
        }
        var own = names.stream().filter(n -> !n.startsWith("kube_") && !n.equals("up")).toList();
        assertThat(own).as("the service's metrics the alerts read").contains("indexer_lag_ms", "events_outbox_oldest_age_seconds",
                "indexer_dead_letter_queue_depth", "locks_conflicts_total", "audit_failures_total",
                "rate_limit_requests_total");

        var scrape = scrape();
        assertThat(missing(own, scrape)).as("metrics of the alerts that /prometheus does not have").isEmpty();
        // the comparison can fail: a misspelt name is missing
        assertThat(missing(List.of("indexer_lag_msec", "locks_conflict_total"), scrape))
                .containsExactly("indexer_lag_msec", "locks_conflict_total");
    }

    private static String scrape() {
        var response = APP.client().target("http://localhost:" + APP.getAdminPort() + PrometheusEndpoint.PATH)
                .request().get();
        var body = response.readEntity(String.class);
        assertThat(response.getStatus()).as(body).isEqualTo(200);
        return body;
    }

    /** The names that have no sample in a scrape: no line starting with the name and a brace or a space. */
    static List<String> missing(Collection<String> names, String scrape) {
        return names.stream()
                .filter(n -> !Pattern.compile("(?m)^" + Pattern.quote(n) + "[{ ]").matcher(scrape).find())
                .toList();
    }
}
