package io.profilestore.changestream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserJournal;
import io.profilestore.change.VersionKind;
import io.profilestore.testing.ProfileApiOverTwins;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the change stream publishes, decided over the twins after real changes through the API: each version the
 * history holds above a profile's mark, oldest first, as the event of its kind with an id made of what it tells; a
 * merge as one event, after every earlier change of the profiles it moved; nothing twice once marked, nothing the
 * history does not hold. Against RabbitMQ and Cassandra: {@code ChangeStreamIT}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class StreamBatchTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();
    static final CloudEvents EVENTS = new CloudEvents(Jackson.newObjectMapper(), "/test", false);

    @Test
    void eachVersionOfAProfileIsOneEventOfItsKindOldestFirstAndNoneTwice() {
        var pid = API.create("{\"surname\": \"Потокова\", \"phones\": [\"79001112233\"]}").pid();
        API.patch(pid, "\"1\"", "{\"firstName\": \"Ирина\"}");
        API.put(pid, "\"2\"", "{\"surname\": \"Потокова\", \"firstName\": \"Ирина\"}");
        API.delete(pid, "\"3\"");

        var first = publish(pid);

        assertThat(first).extracting(e -> e.path("type").asText()).containsExactly("io.profilestore.profile.created",
                "io.profilestore.profile.updated", "io.profilestore.profile.updated", "io.profilestore.profile.erased");
        assertThat(first).extracting(e -> e.path("id").asText())
                .containsExactly(pid + ":1", pid + ":2", pid + ":3", pid + ":4");
        assertThat(first).extracting(e -> e.path("subject").asText()).containsOnly(pid.toString());
        assertThat(first).extracting(e -> e.path("data").path("kind").asText())
                .containsExactly("created", "patched", "replaced", "erased");
        assertThat(names(first.get(0).path("data").path("changedFields"))).containsExactly("phones", "surname");
        assertThat(names(first.get(1).path("data").path("changedFields"))).containsExactly("firstName");
        assertThat(names(first.get(2).path("data").path("changedFields"))).as("the phones went").containsExactly("phones");
        assertThat(first.get(3).path("data").has("changedFields")).isFalse();
        assertThat(first).allSatisfy(event -> {
            assertThat(event.path("specversion").asText()).isEqualTo("1.0");
            assertThat(event.path("source").asText()).isEqualTo("/test");
            assertThat(event.path("data").has("data")).as("no values unless configured").isFalse();
            assertThat(event.path("data").path("requestId").asText()).isNotBlank();
        });
        assertThat(publish(pid)).as("marked: nothing again").isEmpty();
    }

    @Test
    void aMergeIsOneEventAfterEveryEarlierChangeOfTheProfilesItMoved() {
        var kept = API.create("{\"n\": 1}");
        var moved = API.create("{\"n\": 1}");
        var target = UUID.fromString(kept.json().path("uid").asText());
        var source = UUID.fromString(moved.json().path("uid").asText());
        API.patch(moved.pid(), "\"1\"", "{\"n\": 2}");
        assertThat(API.merge(target, source).status()).isEqualTo(200);
        API.patch(moved.pid(), "\"3\"", "{\"n\": 3}");

        // the message of the moved profile's last change comes first: the merge waits for its earlier changes
        var batch = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        batch.profile(moved.pid());
        batch.profile(kept.pid());

        assertThat(batch.events()).extracting(e -> e.path("id").asText()).containsExactly(moved.pid() + ":1",
                moved.pid() + ":2", batch.events().get(2).path("id").asText(), moved.pid() + ":4", kept.pid() + ":1");
        var merge = batch.events().get(2);
        assertThat(merge.path("type").asText()).isEqualTo("io.profilestore.user.merged");
        assertThat(merge.path("id").asText()).startsWith("merge:");
        assertThat(merge.path("subject").asText()).isEqualTo(target.toString());
        assertThat(merge.path("data").path("sources").get(0).asText()).isEqualTo(source.toString());
        assertThat(merge.path("data").path("profiles")).singleElement().satisfies(p -> {
            assertThat(p.path("pid").asText()).isEqualTo(moved.pid().toString());
            assertThat(p.path("version").asLong()).isEqualTo(3);
            assertThat(p.path("to").asText()).isEqualTo(target.toString());
        });
        assertThat(batch.marks().get(moved.pid()).version()).isEqualTo(4);
        assertThat(batch.marks().get(kept.pid()).version()).isEqualTo(1);
    }

    @Test
    void aChangeRecordedButRefusedByCassandraIsNotToldAndItsMessageIsNotCovered() {
        var pid = API.create("{\"n\": 1}").pid();
        API.stores.rows.failNextWrite(new CassandraUnavailableException("refused", null, false));

        var refused = API.patch(pid, "\"1\"", "{\"n\": 2}");

        assertThat(refused.status()).isEqualTo(503);
        assertThat(API.outboxVersions(pid)).as("recorded, announced").contains(2L);
        var batch = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        assertThat(batch.profile(pid)).isEqualTo(new StreamBatch.Covered(1, false));
        assertThat(batch.events()).extracting(e -> e.path("id").asText()).containsExactly(pid + ":1");
        assertThat(new StreamBatch(API.stores.rows, API.journal, EVENTS).profile(UUID.randomUUID()))
                .as("a profile with no history: nothing covered").isEqualTo(new StreamBatch.Covered(0, false));
    }

    /**
     * A merge still pending may yet be abandoned and its versions written away: the profile waits at the version
     * before it, and is held (its message waits for the operation, not for its lease).
     */
    @Test
    void aVersionOfAMergeStillPendingIsHeldBack() {
        var pid = API.create("{\"n\": 1}").pid();
        var uid = UUID.fromString(API.get(pid).json().path("uid").asText());
        var target = UUID.randomUUID();
        var row = API.stores.rows.find(pid).orElseThrow();
        var merged = row.under(target, 2, Instant.now(), row.written() + 10, VersionKind.MERGED);
        API.stores.rows.apply(List.of(new RowWrite.PutProfile(merged), new RowWrite.RecordVersion(merged, row)),
                row.written() + 10, UUID.randomUUID());
        var merge = new UserJournal.Operation(UUID.randomUUID(), UserJournal.Kind.MERGE, target, List.of(uid), null);
        API.stores.transactions.inOne(API.journal.recordMerge(merge,
                List.of(new UserJournal.Move(pid, uid, uid, target, 2)), UUID.randomUUID())::write);

        var held = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        assertThat(held.profile(pid)).isEqualTo(new StreamBatch.Covered(1, true));
        assertThat(held.events()).extracting(e -> e.path("id").asText()).containsExactly(pid + ":1");

        API.journal.finish(merge.opId(), true);
        var told = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        assertThat(told.profile(pid)).isEqualTo(new StreamBatch.Covered(2, false));
        assertThat(told.events()).extracting(e -> e.path("id").asText()).containsExactly(pid + ":1",
                "merge:" + merge.opId());
    }

    @Test
    void everyVersionAboveTheMarkIsToldHoweverManyCameWhileThePublisherWasAway() {
        var pid = API.create("{\"n\": 0}").pid();
        for (long version = 1; version <= 1_204; version++) {
            API.patch(pid, "\"" + version + "\"", "{\"n\": " + version + "}");
        }

        var told = publish(pid);

        assertThat(told).hasSize(1_205);
        assertThat(told.get(0).path("id").asText()).isEqualTo(pid + ":1");
        assertThat(told.get(1_204).path("id").asText()).isEqualTo(pid + ":1205");
    }

    /**
     * The journal of a merge names a version of a profile the merge never gave it (its run interrupted, the profile
     * moved by hand meanwhile, at that version): the merge's event leaves it out, and the profile's own event tells it.
     */
    @Test
    void aMergesEventNamesOnlyTheVersionsItGave() {
        var moved = API.create("{\"n\": 1}").pid();
        var other = API.create("{\"n\": 1}").pid();
        var uid = UUID.fromString(API.get(moved).json().path("uid").asText());
        var target = UUID.randomUUID();
        var row = API.stores.rows.find(moved).orElseThrow();
        var merged = row.under(target, 2, Instant.now(), row.written() + 10, VersionKind.MERGED);
        API.stores.rows.apply(List.of(new RowWrite.PutProfile(merged), new RowWrite.RecordVersion(merged, row)),
                row.written() + 10, UUID.randomUUID());
        var elsewhere = UUID.fromString(API.create("{}").json().path("uid").asText());
        assertThat(API.move(other, "\"1\"", elsewhere).status()).isEqualTo(200);
        var merge = new UserJournal.Operation(UUID.randomUUID(), UserJournal.Kind.MERGE, target, List.of(uid), null);
        API.stores.transactions.inOne(API.journal.recordMerge(merge, List.of(new UserJournal.Move(moved, uid, uid, target, 2),
                new UserJournal.Move(other, uid, uid, target, 2)), UUID.randomUUID())::write);
        API.journal.finish(merge.opId(), true);

        var batch = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        batch.profile(moved);
        batch.profile(other);

        var event = batch.events().stream().filter(e -> e.path("id").asText().startsWith("merge:")).findFirst().orElseThrow();
        assertThat(event.path("data").path("profiles").findValuesAsText("pid")).containsExactly(moved.toString());
        assertThat(batch.events()).extracting(e -> e.path("id").asText()).contains(other + ":2");
    }

    /**
     * A purge that comes before the publisher has told the versions it removes: they are never told (the history no
     * longer holds them, and telling a purged person's move would undo the right to erasure); the purge's event stands
     * for every version below it. ({@code ChangeStreamIT} read 1, 2, 3 and 6 when its purge overtook the publisher.)
     */
    @Test
    void versionsPurgedBeforeTheyWereToldAreNeverToldAndThePurgeStandsForThem() {
        var pid = API.create("{\"n\": 1}").pid();
        publish(pid);
        API.patch(pid, "\"1\"", "{\"n\": 2}");
        API.delete(pid, "\"2\"");

        var purged = API.send("DELETE", "/v1/profiles/" + pid + "/versions", Map.of(), null, null, Map.of());

        assertThat(purged.status()).as(purged.body()).isEqualTo(204);
        assertThat(publish(pid)).extracting(e -> e.path("id").asText() + " " + e.path("type").asText())
                .containsExactly(pid + ":4 io.profilestore.profile.purged");
    }

    /** Publishes what the profile has above its mark, and marks it, as a confirmed batch would. */
    private static List<ObjectNode> publish(UUID pid) {
        var batch = new StreamBatch(API.stores.rows, API.journal, EVENTS);
        batch.profile(pid);
        batch.marks().forEach((marked, mark) -> API.stores.rows.streamedThrough(marked, mark.version(), mark.written()));
        return batch.events();
    }

    private static List<String> names(JsonNode array) {
        var names = new ArrayList<String>();
        array.forEach(name -> names.add(name.asText()));
        return names;
    }
}
