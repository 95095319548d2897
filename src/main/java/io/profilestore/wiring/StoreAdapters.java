package io.profilestore.wiring;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.audit.AuditLog;
import io.profilestore.backends.Backends;
import io.profilestore.cassandra.IdempotentWriter;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.ChangePorts;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.WritePathProbe;
import io.profilestore.postgres.PostgresLockTable;
import io.profilestore.postgres.PostgresOutbox;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.postgres.PostgresUnsettledChanges;
import java.time.Duration;
import java.util.List;

/**
 * The adapters of the stores, built once from the configuration and the open backends: the one place the application
 * and the commands get the write path's ports from, so that they cannot be wired two ways.
 */
public final class StoreAdapters {

    private final ProfileStoreConfiguration config;
    private final ProfileDao profiles;
    private final PostgresOutbox outbox;
    private final PostgresUnsettledChanges unsettled;
    private final ChangePorts ports;

    public StoreAdapters(ProfileStoreConfiguration config, Backends backends, MetricRegistry metrics) {
        this.config = config;
        var writer = new IdempotentWriter(backends.cassandra(), config.profiles.writeAttempts, metrics);
        this.profiles = new ProfileDao(backends.cassandra(), config.cassandra.keyspace, writer);
        this.outbox = new PostgresOutbox(backends.postgres());
        this.unsettled = new PostgresUnsettledChanges(backends.postgres());
        var locks = new PostgresLockTable(backends.postgres(), config.profiles.lockLease.toJavaDuration(), metrics);
        this.ports = new ChangePorts(profiles, locks, new PostgresRecordTransactions(backends.postgres()), outbox,
                unsettled, new AuditLog(backends.postgres(), metrics));
    }

    /** The Cassandra tables of profiles and users. */
    public ProfileDao profiles() {
        return profiles;
    }

    /** The outbox, which the relay reads. */
    public PostgresOutbox outbox() {
        return outbox;
    }

    /** The changes that may still land, which the sweep settles. */
    public PostgresUnsettledChanges unsettled() {
        return unsettled;
    }

    public ChangePorts changePorts() {
        return ports;
    }

    /**
     * The write path; {@code changesRecorded} is told when a change's records are committed and its write landed (the
     * relay of this process).
     */
    public ChangeRunner changeRunner(WritePathProbe probe, Runnable changesRecorded) {
        List<Duration> rechecks = config.profiles.unknownOutcomeRechecks.stream()
                .map(io.dropwizard.util.Duration::toJavaDuration).toList();
        return new ChangeRunner(ports, rechecks, probe, changesRecorded);
    }
}
