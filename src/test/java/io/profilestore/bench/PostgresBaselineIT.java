package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.search.NameNormalizer;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL baseline's update does what the service's PUT does, in one database: the lock row, the version
 * check, the document and the outbox row in one transaction, the lock freed after; and it answers as the service
 * would, never a success that changed nothing.
 */
class PostgresBaselineIT {

    static Dataset dataset;
    static PostgresBaseline postgres;

    @BeforeAll
    static void load() throws Exception {
        dataset = Dataset.of(31, 12);
        postgres = PostgresBaseline.prepare(TestStack.asOwner(), dataset, NameNormalizer.standard());
    }

    @Test
    void anUpdateAtTheVersionReadIsA200ThatRecordsTheChangeAndFreesTheLock() throws Exception {
        var pid = dataset.pids.get(0);
        long version = postgres.version(pid);

        assertThat(postgres.update(pid, version)).isEqualTo(200);

        assertThat(postgres.version(pid)).isEqualTo(version + 1);
        assertThat(count("SELECT count(*) FROM bench.outbox WHERE entity_id = '" + pid + "' AND version = " + (version + 1)))
                .as("the change's outbox row").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM bench.entity_lock WHERE entity = 'profile:" + pid + "' AND holder IS NULL"))
                .as("the lock row, freed").isEqualTo(1);
    }

    @Test
    void anUpdateAtAStaleVersionChangesNothingAndIsA412() throws Exception {
        var pid = dataset.pids.get(1);
        long version = postgres.version(pid);
        assertThat(postgres.update(pid, version)).isEqualTo(200);

        assertThat(postgres.update(pid, version)).as("the version before").isEqualTo(412);

        assertThat(postgres.version(pid)).isEqualTo(version + 1);
        assertThat(count("SELECT count(*) FROM bench.outbox WHERE entity_id = '" + pid + "'")).as("one change only")
                .isEqualTo(1);
    }

    @Test
    void anUpdateOfAProfileAnotherRequestHoldsIsA409() throws Exception {
        var pid = dataset.pids.get(2);
        long version = postgres.version(pid);
        execute("INSERT INTO bench.entity_lock (entity, holder, lease_until, fence) VALUES ('profile:" + pid + "', '"
                + UUID.randomUUID() + "', now() + interval '1 minute', 1) ON CONFLICT (entity) DO UPDATE"
                + " SET holder = excluded.holder, lease_until = excluded.lease_until");
        try {
            assertThat(postgres.update(pid, version)).isEqualTo(409);
            assertThat(postgres.version(pid)).isEqualTo(version);
        } finally {
            execute("UPDATE bench.entity_lock SET holder = NULL, lease_until = NULL WHERE entity = 'profile:" + pid + "'");
        }
        assertThat(postgres.update(pid, version)).as("once it is free").isEqualTo(200);
    }

    private static long count(String sql) throws SQLException {
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void execute(String sql) throws SQLException {
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
