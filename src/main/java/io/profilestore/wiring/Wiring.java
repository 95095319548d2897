package io.profilestore.wiring;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.audit.AuditLog;
import io.profilestore.backends.Backends;
import io.profilestore.cassandra.IdempotentWriter;
import io.profilestore.cassandra.ImportRows;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.cassandra.VersionDao;
import io.profilestore.change.ChangePorts;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.UnsettledSweep;
import io.profilestore.change.WritePathProbe;
import io.profilestore.changestream.ChangeStreamPublisher;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.events.OutboxRelay;
import io.profilestore.events.StreamFeed;
import io.profilestore.history.ProfileHistory;
import io.profilestore.indexer.Indexer;
import io.profilestore.indexer.ProfileDocuments;
import io.profilestore.indexer.Reconciler;
import io.profilestore.indexer.Reindexer;
import io.profilestore.postgres.ExclusiveRun;
import io.profilestore.postgres.PostgresLockTable;
import io.profilestore.postgres.PostgresOutbox;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.postgres.PostgresUnsettledChanges;
import io.profilestore.postgres.PostgresUserJournal;
import io.profilestore.postgres.PostgresUserJournalHistory;
import io.profilestore.postgres.ReindexProgress;
import io.profilestore.profiles.Documents;
import io.profilestore.profiles.ProfileService;
import io.profilestore.schema.IndexAliases;
import io.profilestore.search.CursorSeal;
import io.profilestore.search.NameNormalizer;
import io.profilestore.search.NumberKeys;
import io.profilestore.tablecheck.TableCheck;
import io.profilestore.users.UserHistory;
import io.profilestore.users.UserOperationRecovery;
import io.profilestore.users.UserService;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;

/**
 * The one wiring of the service: every part built from the configuration and the open backends, the same way for the
 * application and for every command. A part is built when first asked for (a command builds only what it uses: a
 * store's adapter prepares its statements when made) and once; the wiring is done on one thread, at start.
 */
public final class Wiring {

    private final ProfileStoreConfiguration config;
    private final Backends backends;
    private final MetricRegistry metrics;
    private final ObjectMapper json;

    private ProfileDao profiles;
    private SearchIndex index;
    private IndexAliases aliases;
    private ProfileDocuments documents;
    private NumberKeys numberKeys;
    private AuditLog audit;
    private ExclusiveRun oneAtATime;
    private PostgresUserJournal journal;
    private PostgresUserJournalHistory journalHistory;
    private PostgresOutbox outbox;
    private PostgresUnsettledChanges unsettled;

    public Wiring(ProfileStoreConfiguration config, Backends backends, MetricRegistry metrics, ObjectMapper json) {
        this.config = config;
        this.backends = backends;
        this.metrics = metrics;
        this.json = json;
    }

    /** The Cassandra tables of profiles and users. */
    public ProfileDao profiles() {
        return profiles = once(profiles, () -> new ProfileDao(backends.cassandra(), config.cassandra.keyspace,
                new IdempotentWriter(backends.cassandra(), config.profiles.writeAttempts, metrics),
                config.history.retention.toJavaDuration()));
    }

    /** The rows an import writes, straight to Cassandra. */
    public ImportRows importRows() {
        return new ImportRows(backends.cassandra(), config.cassandra.keyspace);
    }

    public SearchIndex index() {
        return index = once(index, () -> new SearchIndex(backends.elasticsearch(), config.elasticsearch.indexAlias));
    }

    public IndexAliases aliases() {
        return aliases = once(aliases, () -> new IndexAliases(backends.elasticsearch(), config.elasticsearch.indexAlias));
    }

    /** What the index holds of a profile, as the indexer, reindex and reconcile build it. */
    public ProfileDocuments documents() {
        return documents = once(documents, () -> new ProfileDocuments(profiles(), NameNormalizer.standard(), json,
                numberKeys()));
    }

    /** The keys numbers are hashed with for the index: the indexer's and the search's must be the same. */
    public NumberKeys numberKeys() {
        return numberKeys = once(numberKeys, () -> {
            var keys = NumberKeys.configured(config.search.numberKeys);
            if (keys.development()) {
                // allowed with authentication off only; said, so that a local run's index is not taken for a safe one
                LoggerFactory.getLogger(Wiring.class).warn("numbers are hashed with the development key, written in "
                        + "the source: set search.numberKeys (PROFILE_STORE_NUMBER_KEYS) for an index of your own");
            }
            return keys;
        });
    }

    public AuditLog audit() {
        return audit = once(audit, () -> new AuditLog(backends.postgres(), metrics));
    }

    /** The jobs run on one instance at a time: check-tables (and an import, which it waits for), the sweep. */
    public ExclusiveRun oneAtATime() {
        return oneAtATime = once(oneAtATime, () -> new ExclusiveRun(backends.postgres()));
    }

    public PostgresUserJournal journal() {
        return journal = once(journal, () -> new PostgresUserJournal(backends.postgres()));
    }

    public PostgresUserJournalHistory journalHistory() {
        return journalHistory = once(journalHistory, () -> new PostgresUserJournalHistory(backends.postgres()));
    }

    /** The outbox, which the write path fills and the relay reads. */
    public PostgresOutbox outbox() {
        return outbox = once(outbox, () -> new PostgresOutbox(backends.postgres()));
    }

    /** The changes that may still land, which the write path settles and the sweep too. */
    public PostgresUnsettledChanges unsettled() {
        return unsettled = once(unsettled, () -> new PostgresUnsettledChanges(backends.postgres()));
    }

    /** The adapters the write path goes through. */
    public ChangePorts changePorts() {
        var locks = new PostgresLockTable(backends.postgres(), config.profiles.lockLease.toJavaDuration(), metrics);
        return new ChangePorts(profiles(), locks, new PostgresRecordTransactions(backends.postgres()), outbox(),
                unsettled(), audit());
    }

    /**
     * The write path; {@code changesRecorded} is told when a change's records are committed and its write landed (the
     * relay of this process).
     */
    public ChangeRunner changes(WritePathProbe probe, Runnable changesRecorded) {
        List<Duration> rechecks = config.profiles.unknownOutcomeRechecks.stream()
                .map(io.dropwizard.util.Duration::toJavaDuration).toList();
        return new ChangeRunner(changePorts(), rechecks, probe, changesRecorded);
    }

    public ProfileService profileService(ChangeRunner changes) {
        return new ProfileService(profiles(), changes, new Documents(json, config.profiles.maxDocumentBytes),
                config.profiles.maxBatchSize, config.users.maxProfilesPerUser);
    }

    /** What a profile said, and when: its versions, read from Cassandra. */
    public ProfileHistory profileHistory(CursorSeal cursors) {
        return new ProfileHistory(new VersionDao(backends.cassandra(), config.cassandra.keyspace), cursors,
                config.history.defaultPageSize);
    }

    public UserService userService(ChangeRunner changes) {
        return new UserService(profiles(), changes, journal(), config.users);
    }

    public UserHistory userHistory() {
        return new UserHistory(profiles(), journal(), journalHistory());
    }

    /** Completes the merges and unmerges a crash interrupted. */
    public UserOperationRecovery recovery(UserService users) {
        return new UserOperationRecovery(journal(), users, config.users.recoveryDelay.toJavaDuration(),
                Duration.ofSeconds(1));
    }

    public TableCheck tableCheck(ChangeRunner changes, UserService users) {
        return new TableCheck(profiles(), changes, users, journalHistory(), config.users);
    }

    public UnsettledSweep unsettledSweep(ChangeRunner changes) {
        return new UnsettledSweep(changes, unsettled(), oneAtATime());
    }

    /** Publishes the outbox to RabbitMQ. */
    public OutboxRelay relay() {
        var indexer = config.indexer;
        return new OutboxRelay(outbox(), backends.rabbitmq(), json, indexer.relayInterval.toJavaDuration(),
                indexer.relayLinger.toJavaDuration(), indexer.outboxRetention.toJavaDuration(), metrics);
    }

    public Indexer indexer() {
        return new Indexer(backends.rabbitmq(), documents(), index(), json, config.indexer, metrics);
    }

    /** Publishes the change stream from Cassandra's history (docs/change-stream.md). */
    public ChangeStreamPublisher changeStream() {
        return new ChangeStreamPublisher(backends.rabbitmq(), new VersionDao(backends.cassandra(), config.cassandra.keyspace),
                journalHistory(), json, config.changeStream, config.indexer.leaseClockTolerance.toJavaDuration(), metrics);
    }

    /** Tells the change stream's publisher of profiles the import wrote. */
    public StreamFeed streamFeed() {
        return new StreamFeed(backends.rabbitmq(), json);
    }

    public Reindexer reindexer() {
        return new Reindexer(profiles(), documents(), index(), aliases(), new ReindexProgress(backends.postgres()),
                config.elasticsearch);
    }

    public Reconciler reconciler(Duration grace) {
        return new Reconciler(profiles(), documents(), index(), aliases(), grace);
    }

    private static <T> T once(T built, Supplier<T> build) {
        return built != null ? built : build.get();
    }
}
