package io.profilestore.users;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * check-tables on the users' table and the merge journal: a master that is not the root of its chain of parents is
 * set right, a profile away from its root moves there, however deep the tree; a chain whose parent has no row and a
 * parent the journal does not have are reported, left, and make the command fail. Each test puts back what it broke,
 * so that the tables agree for the next one.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MergeJournalCheckIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    Api api;

    @BeforeEach
    void clientAndTablesInAgreement() {
        api = new Api(APP.getLocalPort());
        checkTables(false); // what earlier tests left is repaired first: each test counts its own
    }

    /** A chain of {@code length} users, each merged into the next; the first holds one profile. Returns the uids. */
    private List<UUID> chain(int length) {
        var uids = new ArrayList<UUID>();
        for (int i = 0; i < length; i++) {
            var created = api.create("{\"surname\": \"Цепочкина\"}");
            uids.add(UUID.fromString(created.json().path("uid").asText()));
            if (i > 0) {
                assertThat(api.delete(created.pid(), etag(1)).status()).isEqualTo(204);
            }
        }
        for (int i = 0; i + 1 < length; i++) {
            assertThat(api.merge(uids.get(i + 1), uids.get(i)).status()).isEqualTo(200);
        }
        return uids;
    }

    @Test
    void aProfileLeftUnderAUserDeepInATreeMovesToItsRoot() {
        var uids = chain(20);
        var root = uids.get(19);
        var pid = api.user(uids.get(0)).json().path("profiles").get(0).path("pid").asText();
        // as a late write of a move can leave it: under the first user, deep in the tree
        cql("UPDATE profiles.profile SET uid = ? WHERE pid = ?", uids.get(0), UUID.fromString(pid));
        cql("INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)", uids.get(0), UUID.fromString(pid));

        var report = checkTables(false);

        assertThat(report).contains("profiles away from their root (not under the root of their own user's tree): 1, 1 moved there");
        assertThat(api.get(UUID.fromString(pid)).json().path("uid").asText()).isEqualTo(root.toString());
        assertThat(checkTables(true)).contains("stray links (a user lists a profile that is not its): 0,")
                .contains("profiles away from their root (not under the root of their own user's tree): 0,");
    }

    @Test
    void aMasterThatIsNotTheRootOfItsChainIsSetRight() {
        var uids = chain(4);
        // a row as rows were before trees: its master is its parent
        cql("UPDATE profiles.persons SET master_uid = ? WHERE uid = ?", uids.get(1), uids.get(0));

        var report = checkTables(false);

        assertThat(report).contains("masters wrong (a merged user's master is not the root of its chain of parents): 1, 1 set right");
        assertThat(api.user(uids.get(0)).json().path("uid").asText()).isEqualTo(uids.get(3).toString());
        assertThat(checkTables(true)).contains("masters wrong (a merged user's master is not the root of its chain of parents): 0,");
    }

    @Test
    void aBrokenChainAndAParentTheJournalDoesNotHaveAreReportedAndLeftAndTheCommandFails() throws Exception {
        var uids = chain(2);
        var stranger = UUID.fromString(api.create("{\"surname\": \"Цепочкина\"}").json().path("uid").asText());
        var ghost = UUID.randomUUID();
        var lonely = UUID.fromString(api.create("{\"surname\": \"Цепочкина\"}").json().path("uid").asText());
        try {
            // the first user's parent has no row; another names a parent no merge of the journal gave it
            cql("UPDATE profiles.persons SET merged_into = ?, master_uid = ? WHERE uid = ?", ghost, ghost, uids.get(0));
            cql("UPDATE profiles.persons SET merged_into = ?, master_uid = ? WHERE uid = ?", stranger, stranger, lonely);

            var command = ApplicationCommand.run(Duration.ofMinutes(2), "check-tables", "--list", TestStack.configPath());

            assertThat(command.output())
                    .contains("broken merge chains (a merged user's parent has no row, or the chain goes round): 1, 0")
                    .contains("users whose parent is not the merge journal's (applied merges less unmerges): 2, 0")
                    .contains("chain broken: user " + uids.get(0) + ": parent " + ghost + " has no row")
                    .contains("journal disagrees: user " + lonely + ": parent " + stranger + ", in the journal null");
            assertThat(command.exitCode()).as("disagreements left: a scheduler sees the failure").isEqualTo(1);
            assertThat(command.output()).as("the profile of a user whose parent is in doubt stays where it is")
                    .contains("profiles away from their root (not under the root of their own user's tree): 0,");
            assertThat(api.user(lonely).status()).as("a broken table answers, never 5xx").isEqualTo(200);
        } finally {
            cql("UPDATE profiles.persons SET merged_into = ?, master_uid = ? WHERE uid = ?", uids.get(1), uids.get(1), uids.get(0));
            cql("UPDATE profiles.persons SET merged_into = null, master_uid = null WHERE uid = ?", lonely);
        }
        assertThat(checkTables(true)).contains("broken merge chains (a merged user's parent has no row, or the chain goes round): 0,")
                .contains("users whose parent is not the merge journal's (applied merges less unmerges): 0,");
    }

    /** A write of the test's own, at the time now: the repairs' fences are above it. */
    private static void cql(String statement, Object... values) {
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(statement, values)
                .setQueryTimestamp(Math.multiplyExact(Instant.now().toEpochMilli(), 1000L)));
    }

    private String checkTables(boolean dryRun) {
        var reply = api.wholeJobOnPort(APP.getAdminPort()).send("POST", "/tasks/check-tables" + (dryRun ? "?dryRun=true" : ""),
                null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }
}
