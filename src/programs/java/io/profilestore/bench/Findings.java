package io.profilestore.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run found, in the order found, for the report: the scenarios' results, notes on how the run went (what was
 * waited for, what an earlier run had loaded), and sections of their own in Markdown (the import, the matches'
 * quality, the refusals).
 */
final class Findings {

    final List<Load.Result> results = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    final List<String> sections = new ArrayList<>();

    /** A scenario's result, printed as it comes so that a long run shows its progress. */
    void measured(Load.Result result) {
        results.add(result);
        System.out.printf("%-50s p50 %6.2f ms  p99 %7.2f ms  all p99 %7.2f ms  %7.1f/s  errors %d  timeouts %d%s%n",
                result.scenario(), result.latencies().getValueAtPercentile(50) / 1000.0,
                result.latencies().getValueAtPercentile(99) / 1000.0, result.all().getValueAtPercentile(99) / 1000.0,
                result.throughput(), result.errors(), result.timeouts(),
                result.firstError() == null ? "" : " (" + result.firstError() + ")");
    }

    /**
     * A result without a progress line: the import's, which its section explains, and the bulk path's, which prints
     * a line of its own (profiles a second rather than requests).
     */
    void addQuietly(Load.Result result) {
        results.add(result);
    }

    void note(String note) {
        notes.add(note);
    }

    void section(String markdown) {
        sections.add(markdown);
    }
}
