package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;

/**
 * A check whose failure shows its kind only. The admin port's {@code /healthcheck} answers probes without a token,
 * and a failing check's exception would be shown whole, message and stack: host names, user names, and from
 * Elasticsearch the reasons it gives, which may quote a document's values. The log has the rest.
 */
public final class TerseHealthCheck extends HealthCheck {

    private final HealthCheck check;

    public TerseHealthCheck(HealthCheck check) {
        this.check = check;
    }

    @Override
    protected Result check() {
        var result = check.execute();
        if (result.getError() == null) {
            return result;
        }
        return Result.unhealthy("failing: " + result.getError().getClass().getSimpleName());
    }
}
