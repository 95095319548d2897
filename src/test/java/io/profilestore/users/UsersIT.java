package io.profilestore.users;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Users as a client sees them: moves, merges, reads through a merged uid, unmerges, and search after each. */
@ExtendWith(DropwizardExtensionsSupport.class)
class UsersIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("users.maxProfilesPerUser", "6"),
                    ConfigOverride.config("users.maxMergeSources", "3")));

    Api api;
    String phone;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
        phone = SearchApi.uniquePhone();
    }

    /** A user with n profiles; returns its uid and its pids. */
    record Holder(UUID uid, List<UUID> pids) {
    }

    Holder user(int profiles) {
        var first = api.create("{\"surname\": \"Орлова\", \"phones\": [\"" + phone + "\"]}");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        var uid = UUID.fromString(first.json().path("uid").asText());
        var pids = new ArrayList<UUID>(List.of(first.pid()));
        for (int i = 1; i < profiles; i++) {
            var next = api.createFor(uid, "{\"surname\": \"Орлова\", \"phones\": [\"" + phone + "\"], \"n\": " + i + "}");
            assertThat(next.status()).as(next.body()).isEqualTo(201);
            pids.add(next.pid());
        }
        return new Holder(uid, pids);
    }

    List<UUID> profilesOf(Api.Reply user) {
        var pids = new ArrayList<UUID>();
        user.json().path("profiles").forEach(p -> pids.add(UUID.fromString(p.path("pid").asText())));
        return pids;
    }

    /** Waits until search shows the profile under this uid. */
    void awaitSearchShows(UUID pid, UUID uid) {
        await("search shows " + pid + " under " + uid).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    for (JsonNode item : api.send("GET", "/v1/search?phone=" + phone.replaceAll("\\D", "") + "&limit=100",
                            null, null, Map.of()).json().path("items")) {
                        if (item.path("pid").asText().equals(pid.toString())) {
                            return item.path("uid").asText().equals(uid.toString());
                        }
                    }
                    return false;
                });
    }

    @Test
    void aProfileMovesToAnotherUser() {
        var a = user(2);
        var b = user(1);
        var p = a.pids().get(0);

        assertProblem(api.move(p, null, b.uid()), 428, "precondition-required");
        assertProblem(api.move(p, etag(5), b.uid()), 412, "stale-version");
        assertProblem(api.move(p, etag(1), UUID.randomUUID()), 422, "user-not-found");
        var moved = api.move(p, etag(1), b.uid());

        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        assertThat(moved.etag()).isEqualTo("\"2\"");
        assertThat(moved.json().path("uid").asText()).isEqualTo(b.uid().toString());
        assertThat(profilesOf(api.user(a.uid()))).containsExactly(a.pids().get(1));
        assertThat(profilesOf(api.user(b.uid()))).containsExactlyInAnyOrder(b.pids().get(0), p);
        assertThat(Stores.pidsOfUser(a.uid())).containsExactly(a.pids().get(1));
        awaitSearchShows(p, b.uid());
    }

    @Test
    void aMergeAndItsUnmergeRestoreExactlyTheGrouping() {
        var a = user(2);
        var b = user(2);
        var c = user(1);

        var merged = api.merge(a.uid(), b.uid(), c.uid());

        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        var mergeId = UUID.fromString(merged.json().path("mergeId").asText());
        assertThat(merged.json().path("moved").path(b.uid().toString()).size()).isEqualTo(2);
        var throughB = api.user(b.uid());
        assertThat(throughB.json().path("uid").asText()).isEqualTo(a.uid().toString());
        assertThat(throughB.json().path("resolvedFrom").asText()).isEqualTo(b.uid().toString());
        assertThat(profilesOf(throughB)).containsExactlyInAnyOrder(a.pids().get(0), a.pids().get(1), b.pids().get(0),
                b.pids().get(1), c.pids().get(0));
        assertThat(api.get(b.pids().get(0)).version()).isEqualTo(2);
        assertThat(Stores.pidsOfUser(b.uid())).isEmpty();
        awaitSearchShows(b.pids().get(1), a.uid());
        assertProblem(api.createFor(b.uid(), "{}"), 409, "user-merged");

        var unmerged = api.unmerge(a.uid(), b.uid());

        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);
        assertThat(unmerged.json().path("restored").path(b.uid().toString()).size()).isEqualTo(2);
        assertThat(unmerged.json().path("skipped")).isEmpty();
        var ownB = api.user(b.uid());
        assertThat(ownB.json().path("uid").asText()).isEqualTo(b.uid().toString());
        assertThat(ownB.json().has("resolvedFrom")).isFalse();
        assertThat(profilesOf(ownB)).containsExactlyInAnyOrderElementsOf(b.pids());
        assertThat(profilesOf(api.user(a.uid()))).containsExactlyInAnyOrder(a.pids().get(0), a.pids().get(1), c.pids().get(0));
        assertThat(api.get(b.pids().get(0)).version()).isEqualTo(3);
        awaitSearchShows(b.pids().get(1), b.uid());
        assertThat(api.user(c.uid()).json().path("uid").asText()).as("c is still merged").isEqualTo(a.uid().toString());

        var rest = api.unmergeById(a.uid(), mergeId);
        assertThat(rest.status()).as(rest.body()).isEqualTo(200);
        assertThat(rest.json().path("restored").path(c.uid().toString()).get(0).asText()).isEqualTo(c.pids().get(0).toString());
        assertThat(profilesOf(api.user(a.uid()))).containsExactlyInAnyOrderElementsOf(a.pids());
        assertProblem(api.unmerge(a.uid(), b.uid()), 404, "merge-not-found");
    }

    @Test
    void mergeChainsAreFollowedToTheirEnd() {
        var a = user(1);
        var b = user(1);
        var c = user(1);
        assertThat(api.merge(a.uid(), b.uid()).status()).isEqualTo(200);
        assertThat(api.merge(c.uid(), a.uid()).status()).isEqualTo(200);

        var throughB = api.user(b.uid());

        assertThat(throughB.json().path("uid").asText()).isEqualTo(c.uid().toString());
        assertThat(throughB.json().path("resolvedFrom").asText()).isEqualTo(b.uid().toString());
        assertThat(profilesOf(throughB)).containsExactlyInAnyOrder(a.pids().get(0), b.pids().get(0), c.pids().get(0));
        assertProblem(api.user(UUID.randomUUID()), 404, "user-not-found");
    }

    /** Users A, B, C with a profile each: A merged into B, then B into C; the two merges undone in either order. */
    @Test
    void anEarlierMergeUndoneAfterALaterOneLeavesEveryoneWhereTheyStarted() {
        for (boolean earlierFirst : List.of(true, false)) {
            var a = user(1);
            var b = user(1);
            var c = user(1);
            assertThat(api.merge(b.uid(), a.uid()).status()).isEqualTo(200);
            assertThat(api.merge(c.uid(), b.uid()).status()).isEqualTo(200);
            assertThat(profilesOf(api.user(a.uid()))).as("all three under C")
                    .containsExactlyInAnyOrder(a.pids().get(0), b.pids().get(0), c.pids().get(0));

            var first = earlierFirst ? api.unmerge(b.uid(), a.uid()) : api.unmerge(c.uid(), b.uid());
            assertThat(first.status()).as(first.body()).isEqualTo(200);
            assertThat(first.json().path("skipped")).as(first.body()).isEmpty();
            if (earlierFirst) {
                assertThat(profilesOf(api.user(a.uid()))).as("A has its own back").containsExactly(a.pids().get(0));
                assertThat(api.user(b.uid()).json().path("uid").asText()).as("B is still C's").isEqualTo(c.uid().toString());
            } else {
                assertThat(profilesOf(api.user(b.uid()))).as("B and what was merged into it")
                        .containsExactlyInAnyOrder(a.pids().get(0), b.pids().get(0));
                assertThat(api.user(a.uid()).json().path("uid").asText()).as("A is still B's").isEqualTo(b.uid().toString());
            }
            var second = earlierFirst ? api.unmerge(c.uid(), b.uid()) : api.unmerge(b.uid(), a.uid());
            assertThat(second.status()).as(second.body()).isEqualTo(200);

            for (var holder : List.of(a, b, c)) {
                var own = api.user(holder.uid());
                assertThat(own.json().path("uid").asText()).as("a user of its own again").isEqualTo(holder.uid().toString());
                assertThat(profilesOf(own)).as("with exactly its own profile").containsExactlyElementsOf(holder.pids());
            }
        }
    }

    @Test
    void aUsersMergeHistoryShowsWhatEachMergeMovedAndWhatItsUnmergeMovedBack() {
        var a = user(1);
        var b = user(1);
        var c = user(1);
        var first = api.merge(b.uid(), a.uid());
        var second = api.merge(c.uid(), b.uid());
        assertThat(api.unmerge(b.uid(), a.uid()).status()).isEqualTo(200);

        var history = api.send("GET", "/v1/users/" + b.uid() + "/merges", null, null, Map.of());

        assertThat(history.status()).as(history.body()).isEqualTo(200);
        var json = history.json();
        assertThat(json.path("uid").asText()).as("the root of the tree").isEqualTo(c.uid().toString());
        assertThat(json.path("pids")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder(b.pids().get(0).toString(), c.pids().get(0).toString());
        var merges = json.path("merges");
        assertThat(merges).hasSize(2);
        assertThat(merges.get(0).path("mergeId").asText()).as("newest first").isEqualTo(second.json().path("mergeId").asText());
        assertThat(merges.get(0).path("moved").path(b.uid().toString())).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder(a.pids().get(0).toString(), b.pids().get(0).toString());
        assertThat(merges.get(0).path("undone")).isEmpty();
        assertThat(merges.get(1).path("mergeId").asText()).isEqualTo(first.json().path("mergeId").asText());
        assertThat(merges.get(1).path("target").asText()).isEqualTo(b.uid().toString());
        var undo = merges.get(1).path("undone").get(0);
        assertThat(undo.path("source").asText()).isEqualTo(a.uid().toString());
        assertThat(undo.path("restored")).extracting(JsonNode::asText).containsExactly(a.pids().get(0).toString());
        assertProblem(api.send("GET", "/v1/users/" + UUID.randomUUID() + "/merges", null, null, Map.of()), 404,
                "user-not-found");
    }

    @Test
    void aLongChainOfMergesIsReadThroughItsRoot() {
        var chain = new ArrayList<UUID>();
        for (int i = 0; i < 18; i++) {
            var holder = user(1);
            assertThat(api.delete(holder.pids().get(0), etag(1)).status()).isEqualTo(204); // empty: no limit is met
            chain.add(holder.uid());
        }
        for (int i = 0; i + 1 < chain.size(); i++) {
            var merged = api.merge(chain.get(i + 1), chain.get(i));
            assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        }

        var first = api.user(chain.get(0));

        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().path("uid").asText()).isEqualTo(chain.get(chain.size() - 1).toString());
        assertThat(first.json().path("resolvedFrom").asText()).isEqualTo(chain.get(0).toString());
    }

    @Test
    void mergesThatCannotBeAreRefusedAndChangeNothing() {
        var a = user(3);
        var b = user(3);
        var c = user(1);
        var d = user(1);
        var e = user(1);

        assertProblem(api.merge(a.uid(), a.uid()), 400, "invalid-request");
        assertProblem(api.merge(a.uid(), b.uid(), b.uid()), 400, "invalid-request");
        assertProblem(api.merge(a.uid(), b.uid(), c.uid(), d.uid(), e.uid()), 400, "invalid-request");
        assertProblem(api.merge(a.uid(), UUID.randomUUID()), 422, "user-not-found");
        // the fuzzer's finding: a null among the sources was a 500
        for (String sources : List.of("[null]", "[\"" + c.uid() + "\", null]")) {
            assertProblem(api.send("POST", "/v1/users/" + a.uid() + "/merge", "application/json",
                    "{\"sources\": " + sources + "}", Map.of()), 400, "invalid-request");
        }
        assertProblem(api.merge(a.uid(), b.uid(), c.uid()), 422, "user-full");
        assertThat(api.merge(c.uid(), d.uid()).status()).isEqualTo(200);
        assertProblem(api.merge(a.uid(), d.uid()), 409, "conflict");
        assertProblem(api.merge(d.uid(), e.uid()), 409, "user-merged");
        for (var user : List.of(a, b, e)) {
            assertThat(profilesOf(api.user(user.uid()))).as("unchanged").containsExactlyInAnyOrderElementsOf(user.pids());
        }
        var full = user(6);
        assertProblem(api.createFor(full.uid(), "{}"), 422, "user-full");
    }
}
