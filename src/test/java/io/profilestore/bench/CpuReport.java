package io.profilestore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The report's "Where the CPU went": for each scenario, the cores each group used in its measured window; for each
 * open-loop scenario, the same in its slowest seconds, beside the collector's pauses; and each scenario's seconds
 * one by one ({@code *.seconds.csv}). A slow second is then seen with what ran in it.
 */
final class CpuReport {

    /** How many of a scenario's slowest seconds the report shows. */
    static final int SLOWEST_SECONDS = 3;

    private CpuReport() {
    }

    static void append(StringBuilder md, Path dir, List<Load.Result> results, CpuMeter cpu) throws IOException {
        if (cpu == null) {
            return;
        }
        var measured = results.stream().filter(r -> r.window() != null).toList();
        if (measured.isEmpty()) {
            return;
        }
        md.append("\n## Where the CPU went\n\nCores each group used on average in a scenario's measured window (of ")
                .append(Runtime.getRuntime().availableProcessors()).append("), from `/proc`: `service`, `load`, `gc` ")
                .append("(the collector's threads and the VM thread) and `jit` are threads of the benchmark's JVM, which ")
                .append("runs both the service and the load generator; `other` is the rest of the machine; `steal` is ")
                .append("time the hypervisor gave to other guests. `paused` is how long the collector stopped the JVM, ")
                .append("in ms a second.\n\n");
        header(md, "scenario");
        for (var r : measured) {
            row(md, r.scenario(), cpu.between(r.window().fromNanos(), r.window().toNanos()));
        }
        md.append("\nThe ").append(SLOWEST_SECONDS).append(" seconds of each open-loop scenario whose slowest request ")
                .append("was slowest, with the CPU of the two samples around it (the second the request was due in and ")
                .append("the next, which it may have waited through); every second is in `<scenario>.seconds.csv`.\n\n");
        header(md, "scenario, second: slowest request");
        for (var r : measured) {
            var slowest = r.window().slowestBySecond();
            IntStream.range(0, slowest.length()).boxed()
                    .sorted(Comparator.comparingLong(slowest::get).reversed())
                    .limit(slowest.length() == 0 ? 0 : SLOWEST_SECONDS)
                    .forEach(second -> {
                        long start = r.window().fromNanos() + second * 1_000_000_000L;
                        row(md, String.format("%s, %d s: %.1f ms", r.scenario(), second, slowest.get(second) / 1000.0),
                                cpu.between(start, start + 1_000_000_000L));
                    });
            seconds(dir, r, cpu);
        }
    }

    private static void header(StringBuilder md, String first) {
        md.append("| ").append(first).append(" | ");
        CpuMeter.GROUPS.forEach(group -> md.append(group).append(" | "));
        md.append("paused |\n| ---");
        CpuMeter.GROUPS.forEach(group -> md.append(" | ---:"));
        md.append(" | ---: |\n");
    }

    private static void row(StringBuilder md, String first, List<CpuMeter.Second> samples) {
        md.append("| ").append(first).append(" | ");
        for (var group : CpuMeter.GROUPS) {
            md.append(samples.isEmpty() ? "-" : String.format("%.2f",
                    samples.stream().mapToDouble(s -> s.cores().get(group)).average().orElse(0))).append(" | ");
        }
        md.append(samples.isEmpty() ? "-" : String.format("%.0f",
                samples.stream().mapToDouble(CpuMeter.Second::gcPausedMillis).sum() / samples.size())).append(" |\n");
    }

    /** Every sample of a scenario's window: when it ended (s into the window), the cores, the pauses, the slowest. */
    private static void seconds(Path dir, Load.Result r, CpuMeter cpu) throws IOException {
        var csv = new StringBuilder("second,").append(String.join(",", CpuMeter.GROUPS)).append(",paused_ms,slowest_ms\n");
        var slowest = r.window().slowestBySecond();
        for (var sample : cpu.between(r.window().fromNanos(), r.window().toNanos())) {
            double at = (sample.atNanos() - r.window().fromNanos()) / 1e9;
            csv.append(String.format("%.1f", at));
            CpuMeter.GROUPS.forEach(group -> csv.append(String.format(",%.2f", sample.cores().get(group))));
            csv.append(String.format(",%.0f", sample.gcPausedMillis()));
            // the requests due in the seconds this sample overlaps
            long worst = 0;
            for (int second = (int) Math.floor(at - 1); second <= (int) Math.floor(at); second++) {
                if (second >= 0 && second < slowest.length()) {
                    worst = Math.max(worst, slowest.get(second));
                }
            }
            csv.append(slowest.length() == 0 ? "," : String.format(",%.1f", worst / 1000.0)).append('\n');
        }
        Files.writeString(dir.resolve(Report.slug(r.scenario()) + ".seconds.csv"), csv.toString());
    }
}
