package io.profilestore.bench;

import io.profilestore.bench.CpuMeter.Group;
import java.util.List;

/**
 * The report's "What a request costs": for each open-loop scenario, the CPU each party spent per request answered in
 * its measured window (the service, each backing service), and PostgreSQL's work per request: transactions ended,
 * WAL flushes to disk and WAL written. A cost that moves between parties (fewer commits, a cheaper bulk) shows here
 * whatever the latencies do on a noisy machine.
 */
final class PerRequestReport {

    private static final List<Group> PARTIES = List.of(Group.SERVICE, Group.CASSANDRA, Group.ELASTICSEARCH,
            Group.POSTGRESQL, Group.RABBITMQ);

    private PerRequestReport() {
    }

    static void append(StringBuilder md, List<Load.Result> results, CpuMeter cpu, PostgresMeter postgres) {
        // interleaved scenarios share one window: its CPU is no one request's
        var measured = results.stream().filter(r -> r.window() != null && r.throughput() > 0
                && !r.scenario().startsWith(InterleavedReport.PREFIX)).toList();
        if (measured.isEmpty() || (cpu == null && postgres == null)) {
            return;
        }
        md.append("\n## What a request costs\n\n")
                .append("Per request answered in a scenario's measured window: the CPU each party used in the window ")
                .append("(ms of one core, from \"Where the CPU went\"; `service` is the benchmark's JVM's service ")
                .append("threads, or a baseline's client), and PostgreSQL's transactions (commits and rollbacks in ")
                .append("the ")
                .append("service's database), WAL flushes to disk (`pg_stat_wal.wal_sync`: committing backends' and ")
                .append("the WAL writer's, the whole server; 0 with `--postgres-fast`, which turns fsync off) and WAL ")
                .append("written. PostgreSQL's statistics are read about ")
                .append("once a second and published by each backend at most about once a second, so each window's ")
                .append("PostgreSQL figures are a few per cent uncertain. Everything else running meanwhile counts ")
                .append("too (the indexer and the relay in the service's process, the stream's publisher).\n\n");
        md.append("| scenario | answered /s |");
        PARTIES.forEach(party -> md.append(' ').append(party.label()).append(" ms |"));
        md.append(" PostgreSQL transactions | WAL flushes | WAL KiB |\n| ---");
        md.append(" | ---:".repeat(PARTIES.size() + 4)).append(" |\n");
        for (var r : measured) {
            md.append("| ").append(r.scenario()).append(String.format(" | %,.0f |", r.throughput()));
            var usage = cpu == null ? null : cpu.between(r.window().fromNanos(), r.window().toNanos());
            for (var party : PARTIES) {
                var cores = usage == null || usage.seconds() == 0 ? null : usage.of(party);
                md.append(cores == null || cores.isEmpty() ? " - |"
                        : String.format(" %.2f |", cores.getAsDouble() * 1000 / r.throughput()));
            }
            var delta = postgres == null ? null : postgres.between(r.window().fromNanos(), r.window().toNanos());
            if (delta == null) {
                md.append(" - | - | - |\n");
            } else {
                double requests = r.throughput() * delta.seconds();
                md.append(String.format(" %.2f | %.2f | %.2f |%n", delta.transactions() / requests,
                        delta.walFlushes() / requests, delta.walBytes() / 1024.0 / requests));
            }
        }
    }
}
