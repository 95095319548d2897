package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.cassandra.IdempotentWriter;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.VersionKind;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows say who wrote them (issue 38): every change carries its request's id (the client's {@code Request-Id}, or one
 * the service made and answered with) into the rows it writes ({@code written_by} of {@code profile}, {@code persons},
 * {@code uid_pid}), its audit record and a merge's journal; the recovery completing a merge writes as the merge's
 * request; check-tables' repairs carry an id of their own that their audit record names; a row written again as it
 * stands keeps the id of the change that made it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RowsSayWhoWroteThemIT {

    static final Duration RECOVERY = Duration.ofSeconds(2);
    static final Duration LEASE = Duration.ofSeconds(2);
    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.recoveryDelay", RECOVERY.toSeconds() + "s"),
                    ConfigOverride.config("profiles.lockLease", LEASE.toSeconds() + "s"),
                    ConfigOverride.config("profiles.writeAttempts", "2")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    @Test
    void aChangeCarriesItsRequestIdIntoItsRowsItsAuditRecordAndItsAnswer() {
        var create = UUID.randomUUID();
        var created = send(create, "POST", "/v1/profiles", "{\"data\": {\"surname\": \"Орлова\"}}", null);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers().firstValue("Request-Id")).hasValue(create.toString());
        var pid = created.pid();
        var uid = UUID.fromString(created.json().path("uid").asText());
        assertThat(Stores.profileWriter(pid)).isEqualTo(create);
        assertThat(userWriter(uid)).as("the new user's row").isEqualTo(create);
        assertThat(linkWriter(uid, pid)).isEqualTo(create);
        assertThat(auditRequestIds(pid)).containsExactly(create);

        var put = UUID.randomUUID();
        assertThat(send(put, "PUT", "/v1/profiles/" + pid, "{\"data\": {\"surname\": \"Орлова\"}}", etag(1)).status())
                .isEqualTo(200);
        assertThat(Stores.profileWriter(pid)).isEqualTo(put);
        assertThat(linkWriter(uid, pid)).as("the row's own link, written with it").isEqualTo(put);
        assertThat(userWriter(uid)).as("a put writes no user row").isEqualTo(create);
        assertThat(auditRequestIds(pid)).containsExactlyInAnyOrder(create, put);

        // no Request-Id: the service makes one, answers with it, and the rows carry it
        var patched = api.patch(pid, etag(2), "{\"firstName\": \"Анна\"}");
        assertThat(patched.status()).isEqualTo(200);
        var made = UUID.fromString(patched.headers().firstValue("Request-Id").orElseThrow());
        assertThat(Stores.profileWriter(pid)).isEqualTo(made);
    }

    /** A Request-Id that is not a UUID (or is the nil one) is not used: the service makes one and answers with it. */
    @Test
    void aRequestIdThatIsNotAUuidIsReplacedByOneTheServiceMakes() {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();

        var put = api.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": {}}",
                Map.of("Request-Id", "ivanov-1", "If-Match", etag(1)));
        var patch = api.send("PATCH", "/v1/profiles/" + pid, "application/merge-patch+json", "{\"n\": 1}",
                Map.of("Request-Id", "00000000-0000-0000-0000-000000000000", "If-Match", etag(2)));

        assertThat(put.status()).isEqualTo(200);
        assertThat(patch.status()).isEqualTo(200);
        var made = UUID.fromString(patch.headers().firstValue("Request-Id").orElseThrow());
        assertThat(made).isNotEqualTo(new UUID(0, 0));
        assertThat(Stores.profileWriter(pid)).isEqualTo(made);
        assertThat(UUID.fromString(put.headers().firstValue("Request-Id").orElseThrow())).isNotEqualTo(made);
    }

    @Test
    void aMoveAndAMergeCarryTheirRequestIdsIntoEveryRowAndTheJournal() {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var mover = newUser();
        var target = newUser();

        var move = UUID.randomUUID();
        assertThat(send(move, "PUT", "/v1/profiles/" + pid + "/user", "{\"uid\": \"" + mover + "\"}", etag(1)).status())
                .isEqualTo(200);
        assertThat(Stores.profileWriter(pid)).isEqualTo(move);
        assertThat(linkWriter(mover, pid)).isEqualTo(move);

        var merge = UUID.randomUUID();
        var merged = send(merge, "POST", "/v1/users/" + target + "/merge", "{\"sources\": [\"" + mover + "\"]}", null);
        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        assertThat(Stores.profileWriter(pid)).isEqualTo(merge);
        assertThat(linkWriter(target, pid)).isEqualTo(merge);
        assertThat(userWriter(mover)).as("the source's row").isEqualTo(merge);
        assertThat(userWriter(target)).as("the target's row").isEqualTo(merge);
        assertThat(journalRequestId(UUID.fromString(merged.json().path("mergeId").asText()))).isEqualTo(merge);
    }

    @Test
    void theRecoveryCompletesAMergeAsTheRequestThatRecordedIt() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var source = UUID.fromString(api.get(pid).json().path("uid").asText());
        var target = newUser();
        var pause = PROBE.pauseNextOf("user:" + source, Step.RECORDED);
        var merge = UUID.randomUUID();

        var asked = CompletableFuture.supplyAsync(() -> send(merge, "POST", "/v1/users/" + target + "/merge",
                "{\"sources\": [\"" + source + "\"]}", null));
        pause.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
            pause.resume();
            reply = asked.get(60, TimeUnit.SECONDS);
        }
        Api.assertProblem(reply, 503, "operation-pending");
        await("the recovery to complete the merge").atMost(RECOVERY.plusSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> target.toString().equals(api.get(pid).json().path("uid").asText()));
        awaitCassandra();

        assertThat(Stores.profileWriter(pid)).isEqualTo(merge);
        assertThat(userWriter(source)).isEqualTo(merge);
        assertThat(journalRequestId(UUID.fromString(reply.json().path("operationId").asText()))).isEqualTo(merge);
        assertThat(systemChanges(pid)).as("the recovery wrote the profile, as the merge's request")
                .contains("recovery " + merge);
    }

    @Test
    void aRepairOfCheckTablesCarriesAnIdOfItsOwnThatItsAuditRecordNames() throws Exception {
        checkTables(); // what earlier tests on the shared stack left is repaired first: this test counts its own
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var mover = newUser();
        var root = newUser();
        // a move paused past its lease lands after its target was merged: the profile is away from its root
        var late = PROBE.pauseNext(pid, Step.RECORDED);
        var move = CompletableFuture.supplyAsync(() -> api.move(pid, etag(1), mover));
        late.awaitReached(Duration.ofSeconds(10));
        await("the paused move's lease to run out").atMost(LEASE.multipliedBy(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
        assertThat(api.merge(root, mover).status()).isEqualTo(200);
        late.resume();
        var answered = move.get(30, TimeUnit.SECONDS);
        assertThat(answered.status()).as("the late move: outcome unknown").isEqualTo(503);
        var lateMove = UUID.fromString(answered.headers().firstValue("Request-Id").orElseThrow());
        assertThat(api.get(pid).json().path("uid").asText()).as("the late move landed").isEqualTo(mover.toString());
        assertThat(Stores.profileWriter(pid)).isEqualTo(lateMove);

        assertThat(checkTables()).contains("profiles away from their root (not under the root of their own user's tree): 1, 1 moved");
        assertThat(api.get(pid).json().path("uid").asText()).isEqualTo(root.toString());
        var repairer = Stores.profileWriter(pid);
        assertThat(repairer).isNotNull().isNotEqualTo(lateMove);
        assertThat(systemChanges(pid)).as("the audit trail's system changes of the profile")
                .containsExactly("check-tables " + repairer);
    }

    @Test
    void aRowWrittenAgainAsItStandsKeepsTheWriterOfItsVersion() {
        awaitCassandra();
        var dao = new ProfileDao(TestStack.backends().cassandra(), "profiles",
                new IdempotentWriter(TestStack.backends().cassandra(), 2, new MetricRegistry()),
                TestStack.configuration().history.retention.toJavaDuration());
        var pid = UUID.randomUUID();
        var uid = UUID.randomUUID();
        var maker = UUID.randomUUID();
        var rewriter = UUID.randomUUID();
        long now = Math.multiplyExact(Instant.now().toEpochMilli(), 1000L);
        dao.apply(List.of(new PutProfile(new ProfileRow(pid, uid, uid, 1, "{}", Instant.now(), Instant.now(), now))),
                now, maker);

        dao.apply(List.of(new PutProfile(dao.find(pid).orElseThrow())), now + 1, rewriter);

        assertThat(Stores.profileWriter(pid)).as("the version's maker, not the rewriter").isEqualTo(maker);
        assertThat(linkWriter(uid, pid)).as("its own link, written with it, names the maker too").isEqualTo(maker);
        assertThat(dao.find(pid).orElseThrow().written()).as("written again above its fence").isEqualTo(now + 1);
        var next = dao.find(pid).orElseThrow();
        dao.apply(List.of(new PutProfile(next.under(uid, 2, Instant.now(), now + 2, VersionKind.MOVED))), now + 2, rewriter);
        assertThat(Stores.profileWriter(pid)).as("a new version is its change's").isEqualTo(rewriter);

        // a row that names no writer (from before written_by, or imported) is written again naming none
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "UPDATE profiles.profile SET written_by = null WHERE pid = ?", pid).setQueryTimestamp(now + 3));
        var unnamed = dao.find(pid).orElseThrow();
        assertThat(unnamed.writtenBy()).isEqualTo(ProfileRow.NO_WRITER);
        dao.apply(List.of(new PutProfile(unnamed)), now + 4, rewriter);
        assertThat(Stores.profileWriter(pid)).isNull();
    }

    /** The test's own session reaches Cassandra again, after the outage a test made (it reconnects in its time). */
    private static void awaitCassandra() {
        await("the test's session to reach Cassandra").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(() -> TestStack.backends().cassandra()
                        .execute("SELECT release_version FROM system.local").one() != null);
    }

    private String checkTables() {
        var reply = api.wholeJobOnPort(APP.getAdminPort()).send("POST", "/tasks/check-tables", null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }

    private Api.Reply send(UUID requestId, String method, String path, String body, String ifMatch) {
        var headers = new HashMap<String, String>(Map.of("Request-Id", requestId.toString()));
        if (ifMatch != null) {
            headers.put("If-Match", ifMatch);
        }
        return api.send(method, path, "application/json", body, headers);
    }

    private UUID newUser() {
        return UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
    }

    private static UUID userWriter(UUID uid) {
        return TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "SELECT written_by FROM profiles.persons WHERE uid = ?", uid)).one().getUuid(0);
    }

    private static UUID linkWriter(UUID uid, UUID pid) {
        return TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "SELECT written_by FROM profiles.uid_pid WHERE uid = ? AND pid = ?", uid, pid)).one().getUuid(0);
    }

    private static List<UUID> auditRequestIds(UUID pid) {
        return query("SELECT request_id FROM audit_record WHERE pids @> ARRAY[?::uuid] AND actor_kind <> 'SYSTEM'", pid);
    }

    private static List<String> systemChanges(UUID pid) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT action, request_id FROM audit_record"
                        + " WHERE pids @> ARRAY[?::uuid] AND actor_kind = 'SYSTEM' ORDER BY id")) {
            statement.setObject(1, pid);
            var found = new ArrayList<String>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1) + " " + rows.getObject(2, UUID.class));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static UUID journalRequestId(UUID opId) {
        var found = query("SELECT request_id FROM user_operation WHERE op_id = ?", opId);
        assertThat(found).as("the journal's operation " + opId).hasSize(1);
        return found.get(0);
    }

    private static List<UUID> query(String sql, UUID id) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(sql)) {
            statement.setObject(1, id);
            var found = new ArrayList<UUID>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getObject(1, UUID.class));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
