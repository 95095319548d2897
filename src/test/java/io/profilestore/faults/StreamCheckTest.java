package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.faults.StreamCheck.Version;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fault suite's judgement of the change stream: a stream that tells every version once or more, in order, passes
 * whatever repeats it holds; one missing, one out of order and one naming a version the history lacks are each found.
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
                + " that did not happen");
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
