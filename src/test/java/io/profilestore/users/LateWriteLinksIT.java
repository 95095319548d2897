package io.profilestore.users;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A late write of a holder that lost its lease: USING TIMESTAMP makes it lose on every cell a newer write touched,
 * but not on rows only it wrote. A move of P to B that lands after a newer move of P to C leaves uid_pid(B, P)
 * standing. The profile row is the truth: reads list a profile only under the user its row names, and the table
 * check removes what the late write left and puts back what is missing.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LateWriteLinksIT {

    static final Duration LEASE = Duration.ofSeconds(2);
    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("profiles.lockLease", LEASE.toSeconds() + "s")));

    Api api;

    @BeforeEach
    void clientAndTablesInAgreement() {
        api = new Api(APP.getLocalPort());
        checkTables(); // what earlier tests left (killed writers, say) is repaired first: each test counts its own
    }

    /** The late move is completed by the newer one's holder first, so its late write leaves no link behind. */
    @Test
    void aMoveThatLandsAfterANewerMoveLeavesTheProfileUnderTheNewerUserOnly() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var b = newUser();
        var c = newUser();
        var late = PROBE.pauseNext(pid, Step.RECORDED);

        var toB = CompletableFuture.supplyAsync(() -> api.move(pid, etag(1), b));
        late.awaitReached(Duration.ofSeconds(10));
        await("the paused move's lease to run out").atMost(LEASE.multipliedBy(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
        // the newer move read the profile under its first user and locked that one: the completion moved it
        Api.assertProblem(api.move(pid, etag(2), c), 409, "conflict");
        assertThat(api.move(pid, etag(2), c).status()).as("the newer move, on top of the late one completed")
                .isEqualTo(200);
        late.resume();
        assertThat(toB.get(30, TimeUnit.SECONDS).status()).as("the late move: outcome unknown").isEqualTo(503);

        assertThat(api.get(pid).json().path("uid").asText()).isEqualTo(c.toString());
        assertThat(Stores.pidsOfUser(b)).as("B lists no profile that is C's").doesNotContain(pid);
        assertThat(pidsListed(c)).contains(pid.toString());
        assertThat(checkTables()).contains("stray links (a user lists a profile that is not its): 0,");
    }

    /**
     * Issue 38, finding 10: a late move's unlink of the profile from its user is newer than the link its create wrote,
     * while a put between them kept the profile's row under that user. A merge that found the user's profiles through
     * {@code uid_pid} alone left the profile under the merged user (missing from the target's profiles until the next
     * check-tables). Every write of a profile's row writes its own link at the same fence, so the listing holds it.
     */
    @Test
    void aMergeAfterALateMoveAndANewerPutTakesTheProfileAlong() throws Exception {
        var created = api.create("{\"surname\": \"Орлова\"}");
        var pid = created.pid();
        var source = UUID.fromString(created.json().path("uid").asText());
        var elsewhere = newUser();
        var target = newUser();
        var late = PROBE.pauseNext(pid, Step.RECORDED);

        var move = CompletableFuture.supplyAsync(() -> api.move(pid, etag(1), elsewhere));
        // written by a version before completions, the late move is not completed by the next holder: it lands late
        Stores.recordedByAnOlderVersion(late.awaitReached(Duration.ofSeconds(10)).holder(), false);
        await("the paused move's lease to run out").atMost(LEASE.multipliedBy(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
        assertThat(api.put(pid, etag(1), "{\"data\": {\"surname\": \"Орлова\", \"firstName\": \"Анна\"}}").status())
                .as("the newer put, which keeps the profile under its user").isEqualTo(200);
        late.resume();
        assertThat(move.get(30, TimeUnit.SECONDS).status()).as("the late move: outcome unknown").isEqualTo(503);
        assertThat(api.get(pid).json().path("uid").asText()).as("the put's row won").isEqualTo(source.toString());

        var merged = api.merge(target, source);

        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        assertThat(merged.json().path("versions").has(pid.toString())).as("the merge moved it: " + merged.body()).isTrue();
        assertThat(api.get(pid).json().path("uid").asText()).as("the profile went with its user")
                .isEqualTo(target.toString());
        assertThat(pidsListed(target)).contains(pid.toString());
        assertThat(checkTables()).as("nothing left for the check to repair")
                .contains("profiles away from their root (not under the root of their own user's tree): 0,")
                .contains("links missing (a profile's user does not list it): 0,");
    }

    /**
     * A late move's link can show before its row does (its logged batch lands partition by partition). check-tables
     * removes that link as stray, at a fence above the row's; should the move's row then land, it would name the user
     * whose link is gone, and merges, which find a user's profiles through the links, would miss it. The removal
     * writes the row again as it stands at the same fence, so the late row loses.
     */
    @Test
    void aStrayLinkRemovedBeforeItsLateRowLandedLeavesNoProfileUnlisted() {
        var created = api.create("{\"surname\": \"Орлова\"}");
        var pid = created.pid();
        var owner = UUID.fromString(created.json().path("uid").asText());
        var elsewhere = newUser();
        long late = Stores.fenceOf("profile:" + pid) + 1; // the move's fence: above the create's, below the check's
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)", elsewhere, pid).setQueryTimestamp(late));

        assertThat(checkTables()).contains("stray links (a user lists a profile that is not its): 1, 1 removed");
        // then the rest of the late move lands: its row, and its unlink of the profile from its owner
        var row = api.get(pid).json();
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance("INSERT INTO profiles.profile"
                + " (pid, uid, home_uid, version, data) VALUES (?, ?, ?, 2, ?)", pid, elsewhere, elsewhere,
                row.path("data").toString()).setQueryTimestamp(late));
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "DELETE FROM profiles.uid_pid WHERE uid = ? AND pid = ?", owner, pid).setQueryTimestamp(late));

        assertThat(api.get(pid).json().path("uid").asText()).as("the late row lost").isEqualTo(owner.toString());
        assertThat(Stores.pidsOfUser(owner)).contains(pid);
        assertThat(checkTables()).contains("links missing (a profile's user does not list it): 0,")
                .contains("stray links (a user lists a profile that is not its): 0,");
    }

    @Test
    void theTableCheckPutsBackAMissingLinkAndFindsNothingWhenAllAgree() {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var owner = UUID.fromString(api.get(pid).json().path("uid").asText());
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "DELETE FROM profiles.uid_pid WHERE uid = ? AND pid = ?", owner, pid)
                .setQueryTimestamp(Math.multiplyExact(Instant.now().toEpochMilli(), 1000L)));
        assertThat(Stores.pidsOfUser(owner)).doesNotContain(pid);

        assertThat(checkTables()).contains("links missing (a profile's user does not list it): 1, 1 put back");
        assertThat(Stores.pidsOfUser(owner)).containsExactly(pid);
        assertThat(checkTables()).contains("links missing (a profile's user does not list it): 0,")
                .contains("stray links (a user lists a profile that is not its): 0,")
                .contains("users missing (a profile names a user without a row): 0,")
                .contains("profiles away from their root (not under the root of their own user's tree): 0,");
    }

    @Test
    void theCommandReportsADisagreementInADryRunAndFailsThenRepairsIt() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var stranger = newUser();
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)", stranger, pid));

        var dryRun = ApplicationCommand.run(Duration.ofMinutes(2), "check-tables", "--dry-run", TestStack.configPath());
        assertThat(dryRun.output()).contains("stray links (a user lists a profile that is not its): 1, 0 removed");
        assertThat(dryRun.exitCode()).as("disagreements left: a scheduler sees the failure").isEqualTo(1);
        assertThat(Stores.pidsOfUser(stranger)).contains(pid);

        var repair = ApplicationCommand.run(Duration.ofMinutes(2), "check-tables", TestStack.configPath());
        assertThat(repair.output()).contains("stray links (a user lists a profile that is not its): 1, 1 removed");
        assertThat(repair.exitCode()).isZero();
        assertThat(Stores.pidsOfUser(stranger)).doesNotContain(pid);
    }

    private UUID newUser() {
        return UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
    }

    private List<String> pidsListed(UUID uid) {
        return api.user(uid).json().path("profiles").findValuesAsText("pid");
    }

    private String checkTables() {
        var reply = api.wholeJobOnPort(APP.getAdminPort()).send("POST", "/tasks/check-tables", null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }
}
