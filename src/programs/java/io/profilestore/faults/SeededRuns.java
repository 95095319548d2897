package io.profilestore.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code --runs N}: N runs one after another with consecutive seeds, each with a stack of its own that it starts and
 * removes (never two at once), each report in a folder of its own ({@code <out>/seed-<n>/}). One line per run (its
 * seed and last line) and a total line; a run that threw counts as failed and the next one still runs.
 */
final class SeededRuns {

    /** What a run of the suite ended with: its last line, and whether it passed (nothing lost, broken or drifted). */
    record Finished(String lastLine, boolean passed) {
    }

    /** One run of the suite. */
    interface Runner {
        Finished run(FaultSuite.Options options) throws Exception;
    }

    private SeededRuns() {
    }

    /** Runs them all; returns whether every one passed. */
    static boolean run(FaultSuite.Options options, Runner runner, Consumer<String> say) {
        var failed = new ArrayList<Long>();
        for (int i = 0; i < options.runs(); i++) {
            var one = options.forRun(i);
            String line;
            try {
                var finished = runner.run(one);
                line = finished.lastLine();
                if (!finished.passed()) {
                    failed.add(one.seed());
                }
            } catch (Exception | Error e) { // an Error too: the next seed still deserves its run
                line = "did not finish: " + firstLine(e);
                failed.add(one.seed());
            }
            say.accept("seed " + one.seed() + ": " + line);
        }
        say.accept(total(options.runs(), failed));
        return failed.isEmpty();
    }

    static String total(int runs, List<Long> failed) {
        return "runs: " + runs + ", passed " + (runs - failed.size()) + ", failed " + failed.size()
                + (failed.isEmpty() ? "" : " (seeds " + String.join(", ", failed.stream().map(String::valueOf).toList()) + ")");
    }

    private static String firstLine(Throwable e) {
        var message = String.valueOf(e.getMessage());
        var end = message.indexOf('\n');
        return e.getClass().getSimpleName() + ": " + (end < 0 ? message : message.substring(0, end));
    }
}
