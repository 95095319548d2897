package io.profilestore.cassandra;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.profilestore.change.CassandraUnavailableException;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * Runs idempotent writes (fixed values, fixed timestamp) until Cassandra confirms them. A write that timed out
 * may sit on one replica and show later; sending the same write again is harmless and turns "maybe" into "done".
 * Only a confirmed write returns; after the last attempt the caller learns whether the write may have happened.
 */
public class IdempotentWriter {

    private final CqlSession session;
    private final int attempts;
    private final IntFunction<Duration> attemptTimeout;
    private final Meter retries;

    public IdempotentWriter(CqlSession session, int attempts, MetricRegistry metrics) {
        this(session, attempts, attempt -> null, metrics);
    }

    /** @param attemptTimeout the timeout of attempt n (from 1), or null for the configured request timeout */
    public IdempotentWriter(CqlSession session, int attempts, IntFunction<Duration> attemptTimeout, MetricRegistry metrics) {
        this.session = session;
        this.attempts = attempts;
        this.attemptTimeout = attemptTimeout;
        this.retries = metrics.meter(MetricRegistry.name(IdempotentWriter.class, "retries"));
    }

    public void execute(Statement<?> statement) {
        if (!Boolean.TRUE.equals(statement.isIdempotent())) {
            throw new IllegalArgumentException("only idempotent statements may be retried");
        }
        boolean maybeApplied = false;
        DriverException last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            if (attempt > 1) {
                retries.mark();
            }
            try {
                Duration timeout = attemptTimeout.apply(attempt);
                session.execute(timeout == null ? statement : statement.setTimeout(timeout));
                return;
            } catch (QueryValidationException e) {
                throw e; // a bug, not an outage: retrying cannot help
            } catch (UnavailableException | NoNodeAvailableException e) {
                last = e; // refused before anything was written: no replicas enough, or no node to send it to
            } catch (WriteTimeoutException | DriverTimeoutException e) {
                last = e;
                maybeApplied = true;
            } catch (DriverException e) {
                last = e;
                maybeApplied = true; // a lost connection: the write may have been sent
            }
        }
        throw new CassandraUnavailableException("Cassandra did not confirm the write after " + attempts
                + " attempts: " + last.getMessage(), last, maybeApplied);
    }
}
