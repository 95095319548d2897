package io.profilestore.bench;

import io.profilestore.bench.CpuMeter.Group;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The report's "Where the CPU went": for each scenario, the cores each group used in its measured window; for each
 * open-loop scenario, the same in its slowest seconds; and each scenario's samples one by one
 * ({@code *.seconds.csv}). A slow second is then seen with what ran in it.
 */
final class CpuReport {

    /** How many of a scenario's slowest seconds the report shows. */
    static final int SLOWEST_SECONDS = 3;

    private CpuReport() {
    }

    /** A scenario's window by its name; an interleaved window is every kind's in it, said so. */
    private static String windowName(Load.Result r) {
        return r.scenario().startsWith(InterleavedReport.PREFIX)
                ? r.scenario() + " and the kinds interleaved with it (one window)" : r.scenario();
    }

    static void append(StringBuilder md, Path dir, List<Load.Result> results, CpuMeter cpu) throws IOException {
        // an interleaved window once, under its first scenario's name
        var windows = new HashSet<Long>();
        var measured = results.stream().filter(r -> r.window() != null && (!r.scenario().startsWith(InterleavedReport.PREFIX)
                || windows.add(r.window().fromNanos()))).toList();
        if (cpu == null || measured.isEmpty()) {
            return;
        }
        md.append("\n## Where the CPU went\n\n")
                .append("Cores each group used in a scenario's measured window, on average (of ").append(cpu.cpus())
                .append("), read from `/proc` about once a second and measured against the machine's own count of ")
                .append("its CPUs' time; a sample partly outside the window counts by the share inside it.\n\n")
                .append("- `service`, `load`, `gc`, `jit`, `ended`: threads of the benchmark's JVM, which runs the ")
                .append("service and the load generator. `load` is the generator's own threads (and this meter); ")
                .append("`gc` the collector's threads and the VM thread; `ended` threads that ended within a sample ")
                .append("(the JIT retires compiler threads, pools idle ones). In a baseline's row `service` is mostly ")
                .append("the baseline's client (the driver's or the Elasticsearch client's threads), and `load` holds ")
                .append("the PostgreSQL baseline's calls.\n")
                .append("- `cassandra`, `elasticsearch`, `postgresql`, `rabbitmq`: their processes, every stack's on ")
                .append("the machine; `-` where none ran here.\n")
                .append("- `other`: the rest of the machine, the kernel's interrupt work included (the loopback network ")
                .append("that carries every request), and processes that ended within a sample (PostgreSQL's ")
                .append("connections).\n")
                .append("- `steal`: time the hypervisor gave to other guests (0 where it does not say); `idle` includes ")
                .append("waiting for the disk.\n")
                .append("- `paused`: how long the collector stopped the JVM, in ms a second, as its beans report pauses: ")
                .append("in whole milliseconds (ZGC's shorter pauses count 0), and on JDK 17 without G1's remark and ")
                .append("cleanup pauses; the collector's log has each.\n\n");
        header(md, "scenario");
        for (var r : measured) {
            row(md, windowName(r), cpu.between(r.window().fromNanos(), r.window().toNanos()));
        }
        var without = results.stream().filter(r -> r.window() == null).map(Load.Result::scenario).toList();
        if (!without.isEmpty()) {
            md.append("\nNot in the table (not one window): ").append(String.join("; ", without)).append(".\n");
        }
        md.append("\nThe ").append(SLOWEST_SECONDS).append(" seconds of each open-loop scenario whose slowest request ")
                .append("was slowest (second k: the requests due from k to k + 1 s into the window), with the CPU from ")
                .append("the start of that second until its slowest request was answered; every sample is in ")
                .append("`<scenario>.seconds.csv`.\n\n");
        header(md, "scenario, second: slowest request");
        for (var r : measured) {
            var slowest = r.window().slowestBySecond();
            IntStream.range(0, slowest.length()).boxed()
                    .sorted(Comparator.comparingLong(slowest::get).reversed())
                    .limit(SLOWEST_SECONDS)
                    .forEach(second -> {
                        long start = r.window().fromNanos() + second * 1_000_000_000L;
                        long answered = start + 1_000_000_000L + slowest.get(second) * 1_000L;
                        row(md, String.format("%s, second %d: %.1f ms", windowName(r), second, slowest.get(second) / 1000.0),
                                cpu.between(start, answered));
                    });
            Files.writeString(dir.resolve(Report.slug(r.scenario()) + ".seconds.csv"), seconds(r, cpu));
        }
        if (cpu.failedSamples() > 0) {
            md.append("\n").append(cpu.failedSamples()).append(" samples could not be read; their ticks are in the next.\n");
        }
        if (cpu.lateSamples() > 0) {
            md.append("\n").append(cpu.lateSamples()).append(" samples were read late (the meter itself waited for ")
                    .append("CPU, and its readings of one sample were more than 5% apart): their groups are less exact.\n");
        }
    }

    private static void header(StringBuilder md, String first) {
        md.append("| ").append(first).append(" |");
        for (var group : Group.values()) {
            md.append(' ').append(group.label()).append(" |");
        }
        md.append(" paused |\n| ---");
        md.append(" | ---:".repeat(Group.values().length)).append(" | ---: |\n");
    }

    private static void row(StringBuilder md, String first, CpuMeter.Usage usage) {
        md.append("| ").append(first).append(" |");
        for (var group : Group.values()) {
            var cores = usage.of(group);
            md.append(' ').append(usage.seconds() == 0 || cores.isEmpty() ? "-" : String.format("%.2f", cores.getAsDouble())).append(" |");
        }
        md.append(' ').append(usage.seconds() == 0 ? "-" : String.format("%.0f", usage.pausedMillisPerSecond())).append(" |\n");
    }

    /**
     * Every sample that overlaps a scenario's window: its start and end (s into the window), the cores, the pauses,
     * and the slowest request due within it.
     */
    static String seconds(Load.Result r, CpuMeter cpu) {
        var csv = new StringBuilder("sample_start_s,sample_end_s");
        for (var group : Group.values()) {
            csv.append(',').append(group.label());
        }
        csv.append(",paused_ms,slowest_ms\n");
        var slowest = r.window().slowestBySecond();
        long from = r.window().fromNanos();
        for (var sample : cpu.samples(from, r.window().toNanos())) {
            double start = (sample.fromNanos() - from) / 1e9;
            double end = (sample.toNanos() - from) / 1e9;
            csv.append(String.format("%.2f,%.2f", start, end));
            for (var group : Group.values()) {
                csv.append(String.format(",%.2f", sample.machineTicks() == 0 ? 0
                        : (double) sample.ticks().getOrDefault(group, 0L) / sample.machineTicks() * cpu.cpus()));
            }
            csv.append(',').append(sample.pausedMillis());
            long worst = -1;
            for (int second = (int) Math.max(0, Math.floor(start)); second < Math.min(slowest.length(), end); second++) {
                worst = Math.max(worst, slowest.get(second));
            }
            csv.append(worst < 0 ? "," : String.format(",%.1f", worst / 1000.0)).append('\n');
        }
        return csv.toString();
    }
}
