package io.profilestore.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watched file is applied when its content changes, once; a change that is refused, or a file gone, leaves what was
 * applied before; a change made between the watch and the first read is applied at the next check.
 */
class WatchedFileTest {

    @TempDir
    Path folder;

    final List<String> applied = new ArrayList<>();
    final MetricRegistry metrics = new MetricRegistry();

    WatchedFile watch(Path file) {
        return new WatchedFile(file, "test", content -> {
            String text = new String(content, StandardCharsets.UTF_8);
            if (text.startsWith("bad")) {
                throw new IllegalArgumentException("refused");
            }
            applied.add(text);
        }, metrics);
    }

    @Test
    void aChangeIsAppliedOnceAndTheSameContentNotAgain() throws Exception {
        var file = Files.writeString(folder.resolve("keys.yml"), "one");
        var watch = watch(file);

        assertThat(watch.check()).as("unchanged since the watch").isFalse();
        Files.writeString(file, "two");
        assertThat(watch.check()).isTrue();
        assertThat(watch.check()).isFalse();
        // Kubernetes swaps a link to a new folder: the same content at a new time is no change
        Files.writeString(file, "two");
        assertThat(watch.check()).isFalse();

        assertThat(applied).containsExactly("two");
        assertThat(metrics.counter("files.test.reloaded").getCount()).isEqualTo(1);
    }

    @Test
    void aRefusedChangeOrAFileGoneLeavesWhatWasAppliedAndIsSaidOnce() throws Exception {
        var file = Files.writeString(folder.resolve("keys.yml"), "one");
        var watch = watch(file);

        Files.writeString(file, "bad news");
        assertThat(watch.check()).isFalse();
        assertThat(watch.check()).as("refused once, not at every look").isFalse();
        assertThat(metrics.counter("files.test.refused").getCount()).isEqualTo(1);
        Files.delete(file);
        assertThat(watch.check()).isFalse();
        Files.writeString(file, "three");
        assertThat(watch.check()).isTrue();

        assertThat(applied).containsExactly("three");
    }

    @Test
    void aChangeBetweenTheWatchAndTheFirstReadIsReadAgain() throws Exception {
        var file = Files.writeString(folder.resolve("keys.yml"), "one");
        var watch = watch(file);
        Files.writeString(file, "changed before the first read");

        assertThat(watch.check()).isTrue();
        assertThat(applied).containsExactly("changed before the first read");
    }
}
