package io.profilestore.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The overhead measured interleaved ({@link Load#interleaved}): each endpoint, the backend call it comes down to and
 * HTTP alone taking turns request by request in one window, on one client, each counted apart. Measured one after
 * the other, the same three moved more from run to run than any change to the service (issue 41: a GET's ratio 2.4×
 * in one run, 1.9× in the next); taking turns, whatever the machine does meanwhile falls on all three alike.
 */
final class InterleavedReport {

    /** What the names of interleaved scenarios begin with. */
    static final String PREFIX = "interleaved: ";
    static final String READS_HTTP = PREFIX + "GET /ping among the reads";
    static final String SEARCHES_HTTP = PREFIX + "GET /ping among the searches";

    /** An endpoint, the backend call it comes down to and HTTP alone, measured interleaved, and the bound to meet. */
    record Comparison(String service, String backend, String http, double bound) {
    }

    /** The GET against its read done as the service does it (issue 41's definition of the target's raw read). */
    static final Comparison GET_INTERLEAVED = new Comparison(PREFIX + "GET /v1/profiles/{pid}",
            PREFIX + "Cassandra read as the service does it", READS_HTTP, Report.OVERHEAD);
    /** The same GET against the driver's read alone: no decoding, finished on the driver's thread. */
    static final Comparison GET_AGAINST_RAW_READ = new Comparison(GET_INTERLEAVED.service(),
            PREFIX + "raw Cassandra read, QUORUM", READS_HTTP, Report.OVERHEAD);
    static final List<Comparison> SEARCHES_INTERLEAVED = List.of(
            search("surname prefix", "surname prefix query"),
            search("exact phone", "exact phone query"),
            search("q, a name as typed", "q query"));

    private static Comparison search(String form, String query) {
        return new Comparison(PREFIX + "GET /v1/search " + form, PREFIX + "raw Elasticsearch " + query,
                SEARCHES_HTTP, Report.SEARCH_OVERHEAD);
    }

    private InterleavedReport() {
    }

    /** The overhead from the interleaved scenarios: in each window one client, every kind taking its turn. */
    static void append(StringBuilder md, List<Load.Result> results) {
        var rows = new StringBuilder();
        var comparisons = new ArrayList<Comparison>(List.of(GET_INTERLEAVED, GET_AGAINST_RAW_READ));
        comparisons.addAll(SEARCHES_INTERLEAVED);
        for (var comparison : comparisons) {
            var service = Report.find(results, comparison.service());
            var backend = Report.find(results, comparison.backend());
            var floor = Report.find(results, comparison.http());
            if (service == null || backend == null || floor == null || backend.latencies().getTotalCount() == 0) {
                continue;
            }
            double s = service.latencies().getValueAtPercentile(50) / 1000.0;
            double b = backend.latencies().getValueAtPercentile(50) / 1000.0;
            double h = floor.latencies().getValueAtPercentile(50) / 1000.0;
            rows.append(String.format("| %s | %s | %.2f ms | %.2f ms | %.2f ms | %.3f× | ≤ %.1f× | %s |%n",
                    comparison.service().substring(PREFIX.length()), comparison.backend().substring(PREFIX.length()),
                    s, b, h, (s - h) / b, comparison.bound(), s <= comparison.bound() * b + h ? "yes" : "**no**"));
        }
        if (rows.length() > 0) {
            md.append("\nThe same, interleaved: each endpoint, the backend call it comes down to and `GET /ping` taking turns"
                    + " request by request in one window, on one client, each round in an order drawn anew. The GET's read"
                    + " as the service does it: its columns, waited for on a pool's thread, the row decoded into the"
                    + " profile; the raw read: the driver alone, finished on its own thread.\n\n")
                    .append("| endpoint | backend | service p50 | backend p50 | HTTP p50 | (service − HTTP) / backend"
                            + " | target | met |\n")
                    .append("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n").append(rows);
        }
    }
}
