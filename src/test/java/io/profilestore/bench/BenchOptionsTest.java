package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's options: those a size series gives each of its runs (--quick's durations, the series' size, and the
 * reuse of data), and {@code ./bench/run --help}, which lists every option the parser knows.
 */
class BenchOptionsTest {

    private static final Path PROJECT = Path.of(System.getProperty("profileStore.projectDir", ""));

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(args);
    }

    @Test
    void aQuickRunImportsItsProfilesAgainUnlessToldToReuseThemInEitherOrder() {
        assertThat(parse().reuse()).as("a full run").isTrue();
        assertThat(parse("--quick").reuse()).isFalse();
        assertThat(parse("--quick", "--reuse").reuse()).isTrue();
        assertThat(parse("--reuse", "--quick").reuse()).isTrue();
    }

    @Test
    void aQuickRunOfASeriesKeepsTheSizeItIsGiven() {
        var run = parse("--quick", "--only", "reads,search", "--profiles", "4000", "--reuse", "--out", "/tmp/s/4000");

        assertThat(run.profiles()).isEqualTo(4_000);
        assertThat(run.duration()).as("--quick's").isEqualTo(parse("--quick").duration());
        assertThat(run.out()).hasToString("/tmp/s/4000");
    }

    @Test
    void helpListsEveryOptionTheParserTakesWithoutBuildingAnything() throws Exception {
        var source = Files.readString(PROJECT.resolve("src/programs/java/io/profilestore/bench/BenchOptions.java"));
        var options = Pattern.compile("case \"(--[a-z0-9-]+)\" ->").matcher(source).results().map(m -> m.group(1))
                .toList();
        assertThat(options).as("the parser's options").contains("--profiles", "--only", "--cluster", "--quick");
        assertThat(source).as("every case of the parser names one option, so that none is missed above")
                .doesNotContainPattern("case \"--[^\"]*\", ");

        var process = new ProcessBuilder("bash", "bench/run", "--help").directory(PROJECT.toFile())
                .redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            // it went on to build and run the benchmark: stop that too
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("./bench/run --help did not answer in 20 s: it builds nothing, so it should");
        }
        var help = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(help).isZero();
        assertThat(help).as("what --help printed").startsWith("The benchmark").doesNotContain("set -euo");
        for (var option : options) {
            // not a longer option's start: --keep is not listed by --keep-stack
            assertThat(help).as("--help lists " + option).containsPattern(Pattern.quote(option) + "(?![\\w-])");
        }
    }

    @Test
    void anUnknownOptionIsRefusedNamingHelp() {
        assertThatThrownBy(() -> parse("--profile", "10")).hasMessageContaining("--profile")
                .hasMessageContaining("--help");
    }
}
