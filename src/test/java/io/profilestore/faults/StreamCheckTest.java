package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.faults.StreamCheck.Version;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's judgement of the change stream: a stream that tells every version once or more, in order, passes
 * whatever repeats it holds; one missing, one out of order and one naming a version the history lacks are each found;
 * and an acknowledged change without its event, or told as another kind, is found.
 */
class StreamCheckTest {

    static final ObjectMapper JSON = new ObjectMapper();
    final UUID a = UUID.randomUUID();
    final UUID b = UUID.randomUUID();
    final List<Version> history = List.of(new Version(a, 1, "created"), new Version(a, 2, "patched"),
            new Version(b, 1, "created"), new Version(b, 2, "merged"), new Version(a, 3, "erased"),
            new Version(b, 3, "unrecorded"));

    @Test
    void everyVersionToldInOrderPassesWithRepeatsAndAMergeTellingItsProfiles() {
        var events = List.of(profile(a, 1), profile(b, 1), profile(a, 2), merge(b, 2), profile(a, 1), profile(a, 3),
                merge(b, 2), profile(a, 2));

        var result = StreamCheck.check(history, events);

        assertThat(result.violations()).isEmpty();
        assertThat(result.events()).isEqualTo(5);
        assertThat(result.versions()).as("the unrecorded version is not judged").isEqualTo(5);
        assertThat(StreamCheck.complete(history, events)).isTrue();
        assertThat(result.line()).isEqualTo("stream: 5 events for 5 versions, 0 missing, 0 out of order, 0 for changes"
                + " that did not happen; 0 acknowledged changes, 0 not told as they were");
    }

    @Test
    void aMissingAnOutOfOrderAndAPhantomEventAreEachFound() {
        var events = List.of(profile(a, 2), profile(a, 1), profile(b, 1), profile(b, 7), profile(a, 3));

        var result = StreamCheck.check(history, events);

        assertThat(result.missing()).containsExactly(b + " version 2 (merged)");
        assertThat(result.outOfOrder()).containsExactly(a + " version 1 after version 2");
        assertThat(result.phantom()).containsExactly(b + ":7 (" + b + " version 7)");
        assertThat(result.violations()).hasSize(3);
        assertThat(StreamCheck.complete(history, events)).isFalse();
    }

    @Test
    void everyAcknowledgedChangeToldAsWhatItWasPasses() {
        var changes = List.of(change("create", a, null, 1L, "ok"), change("patch", a, 1L, 2L, "ok"),
                change("put", a, 1L, 2L, "failed"), change("merge", b, null, 2L, "ok"), change("erase", a, 2L, null, "ok"),
                change("read", a, null, 2L, "ok"));
        var events = List.of(profile(a, 1, "created"), profile(a, 2, "patched"), merge(b, 2), profile(a, 3, "erased"));

        var result = StreamCheck.acknowledged(StreamCheck.check(history, events), changes, events);

        assertThat(result.untold()).isEmpty();
        assertThat(result.acknowledged()).as("the failed put and the read are not judged").isEqualTo(4);
    }

    @Test
    void aMoveThatChangedNothingIsNotTheVersionItAnswers() {
        var changes = List.of(change("create", a, null, 1L, "ok"), change("put", a, 1L, 2L, "ok"),
                change("move", a, 2L, 2L, "ok"));
        var events = List.of(profile(a, 1, "created"), profile(a, 2, "replaced"));

        var result = StreamCheck.acknowledged(StreamCheck.check(history, events), changes, events);

        assertThat(result.untold()).isEmpty();
        assertThat(result.acknowledged()).as("the move to where it was made no version").isEqualTo(2);
    }

    @Test
    void anAcknowledgedChangeUntoldOrToldAsAnotherIsFound() {
        var c = UUID.randomUUID();
        var changes = List.of(change("create", a, null, 1L, "ok"), change("put", a, 1L, 2L, "ok"),
                change("create", c, null, 1L, "ok"), change("unmerge", b, null, 2L, "ok"));
        var events = List.of(profile(a, 1, "created"), profile(a, 2, "patched"), merge(b, 2));

        var result = StreamCheck.acknowledged(StreamCheck.check(history, events), changes, events);

        assertThat(result.untold()).containsExactly("put #2 of " + a + ":2: told as patched",
                "create #3 of " + c + ":1: no event", "unmerge #4 of " + b + ":2: told as merged");
        assertThat(result.violations()).contains("stream: an acknowledged change not told as it was: create #3 of " + c
                + ":1: no event");
    }

    private int ids;

    private Event change(String op, UUID pid, Long ifMatch, Long version, String outcome) {
        var versions = version == null || op.equals("erase") ? Map.<UUID, Long>of() : Map.of(pid, version);
        return new Event(++ids, 0, op, "api-1", ids, ids + 1, List.of(pid), null, null, ifMatch,
                outcome.equals("ok") ? 200 : 412, null, outcome, Map.of(), versions, List.of(), null,
                Map.of(), null, Map.of(), null, List.of());
    }

    private static JsonNode profile(UUID pid, long version, String kind) {
        var event = (ObjectNode) profile(pid, version);
        ((ObjectNode) event.path("data")).put("kind", kind);
        return event;
    }

    private static JsonNode profile(UUID pid, long version) {
        var event = JSON.createObjectNode().put("id", pid + ":" + version).put("type", "io.profilestore.profile.updated");
        event.putObject("data").put("pid", pid.toString()).put("version", version);
        return event;
    }

    private static JsonNode merge(UUID pid, long version) {
        var event = JSON.createObjectNode().put("id", "merge:" + pid).put("type", "io.profilestore.user.merged");
        event.putObject("data").putArray("profiles").addObject().put("pid", pid.toString()).put("version", version);
        return event;
    }
}
