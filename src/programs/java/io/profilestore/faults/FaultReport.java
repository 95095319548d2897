package io.profilestore.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The report of a run: README.md (what was injected when, what each fault cost, what the check found) and the
 * history itself (history.jsonl), which an external checker can read.
 */
final class FaultReport {

    private FaultReport() {
    }

    static void write(FaultSuite.Options options, FaultSuite.Outcome outcome, List<Event> history, long runStart)
            throws IOException {
        var lines = new ArrayList<String>();
        for (var event : history) {
            lines.add(Workload.JSON.writeValueAsString(event));
        }
        Files.write(options.out().resolve("history.jsonl"), lines, StandardCharsets.UTF_8);

        var md = new StringBuilder();
        md.append("# Fault suite: ").append(LocalDate.now()).append("\n\n");
        md.append("```\n./faults/run ").append(options.command()).append("\n```\n\n");
        md.append("Seed ").append(options.seed()).append(", ").append(options.clients()).append(" clients for ")
                .append(options.duration().toSeconds()).append(" s, ").append(history.size()).append(" requests (")
                .append(history.stream().filter(Event::isChange).count()).append(" changes).\n\n");
        md.append("**").append(outcome.lastLine()).append("**\n\n");

        md.append("## Faults and what each cost\n\n");
        md.append("Requests under way from the fault's start until 10 s after it healed, or until the next fault struck"
                + " if sooner (those in flight when it struck too; those the next one cut off are the next one's). Refused: attempts whose"
                + " connection was refused (the instance was down or starting), each sent again to the other instance as a"
                + " load balancer would; never sent, they are not counted as requests. Errors: requests answered 5xx, or"
                + " not answered. Recovered: from the heal to the first acknowledged change that began after it.\n\n");
        md.append("With: the faults it overlapped (struck while it held, or holding when it was struck); the costs of"
                + " overlapping faults are counted against each of them.\n\n");
        md.append("| # | fault | target | at (s) | lasted (s) | with | requests | refused | errors | p50 | p99 | recovered (s) |\n");
        md.append("| ---: | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        var faults = inOrder(outcome.faults());
        for (int n = 0; n < faults.size(); n++) {
            var fault = faults.get(n);
            var cost = FaultCost.of(fault, faults, history);
            md.append(String.format("| %d | %s | %s | %.1f | %.1f | %s | %d | %d | %d | %s | %s | %s |%n", n + 1,
                    fault.fault().name().toLowerCase().replace('_', ' '), fault.target(), seconds(fault.start()),
                    seconds(fault.healed() - fault.start()), overlapping(faults, n), cost.requests(), cost.refused(),
                    cost.errors(),
                    millis(cost.p50Micros()), millis(cost.p99Micros()),
                    cost.recovered().isPresent() ? String.format("%.1f", seconds(cost.recovered().getAsLong())) : "-"));
        }

        md.append("\n## What the check found\n\n");
        var result = outcome.history();
        var unknowns = result.unknowns();
        md.append("- acknowledged changes: ").append(result.acknowledged()).append("; lost: ").append(result.lost()).append('\n');
        md.append("- answers \"outcome unknown\" (no answer, or one that said so): ").append(unknowns.total())
                .append(" (").append(unknowns.byOperation().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", ")))
                .append("): applied in every choice that explains the history ").append(unknowns.applied())
                .append(", in none ").append(unknowns.notApplied()).append(", either (both explain it) ")
                .append(unknowns.either()).append(", unsettled (in a group unexplained or undecided) ")
                .append(unknowns.unsettled()).append('\n');
        md.append("- groups of profiles no choice of outcomes explains: ").append(result.unexplained())
                .append("; not decided within the search's budget: ").append(result.undecided().size()).append('\n');
        md.append("- disagreements the first check-tables pass found (in the state judged above): ").append(result.repairs())
                .append('\n');
        md.append("- invariant violations (users included): ").append(outcome.violations()).append('\n');
        md.append("- the index equalled Cassandra (every profile and document: version, user, first name) ")
                .append(outcome.convergedAfterSeconds()).append(" s after the faults healed; differing: ")
                .append(outcome.drift()).append('\n');
        md.append("- the change stream (read from its start, judged against Cassandra's history): ")
                .append(outcome.stream().line()).append("\n\n");
        if (!result.undecided().isEmpty()) {
            md.append("Undecided (the first 10):\n\n");
            result.undecided().stream().limit(10).forEach(v -> md.append("- ").append(v).append('\n'));
            md.append('\n');
        }
        if (!result.violations().isEmpty()) {
            md.append("Violations (the first 50):\n\n");
            result.violations().stream().limit(50).forEach(v -> md.append("- ").append(v).append('\n'));
            md.append('\n');
        }
        if (!outcome.driftFound().isEmpty()) {
            md.append("Index drift (the first 50):\n\n");
            outcome.driftFound().stream().limit(50).forEach(v -> md.append("- ").append(v).append('\n'));
            md.append('\n');
        }
        md.append("### check-tables after the faults\n\n```\n").append(outcome.tableCheck()).append("\n```\n\n");
        md.append("### Answers by operation and outcome\n\n| operation | ok | failed | unknown |\n| --- | ---: | ---: | ---: |\n");
        for (var op : List.of("create", "put", "patch", "batchUpdate", "erase", "move", "merge", "unmerge", "read",
                "refused")) {
            var ofOp = history.stream().filter(e -> e.op().equals(op)).toList();
            md.append(String.format("| %s | %d | %d | %d |%n", op, ofOp.stream().filter(Event::ok).count(),
                    ofOp.stream().filter(e -> Event.FAILED.equals(e.outcome())).count(),
                    ofOp.stream().filter(e -> Event.UNKNOWN.equals(e.outcome())).count()));
        }
        Files.writeString(options.out().resolve("README.md"), md.toString(), StandardCharsets.UTF_8);
    }

    /** The faults by the time each was struck (two struck together are recorded as each heals). */
    static List<Fault.Injected> inOrder(List<Fault.Injected> faults) {
        var sorted = new ArrayList<>(faults);
        sorted.sort(Comparator.comparingLong(Fault.Injected::start));
        return sorted;
    }

    /** The numbers (from 1) of the other faults that held at some moment while this one did; "-" for none. */
    static String overlapping(List<Fault.Injected> faults, int n) {
        var fault = faults.get(n);
        var with = new ArrayList<String>();
        for (int other = 0; other < faults.size(); other++) {
            var it = faults.get(other);
            if (other != n && it.start() < fault.healed() && fault.start() < it.healed()) {
                with.add(Integer.toString(other + 1));
            }
        }
        return with.isEmpty() ? "-" : String.join(", ", with);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static String millis(long micros) {
        return String.format("%.0f ms", micros / 1000.0);
    }
}
