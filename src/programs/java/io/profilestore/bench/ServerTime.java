package io.profilestore.bench;

import io.profilestore.resources.RequestMetrics;
import java.net.URI;
import java.util.List;

/**
 * The service's own time for a route, from Jersey taking a request to the answer written, as its {@code /prometheus}
 * says ({@link RequestMetrics#REQUESTS}, a histogram's sum and count): read as a window starts and once its answers
 * are in, the mean of what the service spent on the window's requests, apart from the client, the connection and the
 * wait for a Jetty thread.
 */
record ServerTime(double seconds, long requests) {

    private static final String HISTOGRAM = RequestMetrics.REQUESTS;

    /** The service's time on GETs by pid so far, from its {@code /prometheus} on the admin port. */
    static ServerTime ofGets(BenchHttp http, int adminPort) {
        var reply = http.get(URI.create("http://127.0.0.1:" + adminPort + "/prometheus")).join();
        return of(reply.getBodyText(), "/v1/profiles/{pid}", "GET", 200);
    }

    /** The sum and count of {@code route}'s requests of {@code method} answered with {@code status}, in exposition text. */
    static ServerTime of(String exposition, String route, String method, int status) {
        var labels = List.of("route=\"" + route + "\"", "method=\"" + method + "\"", "status=\"" + status + "\"");
        return new ServerTime(value(exposition, HISTOGRAM + "_sum{", labels), (long) value(exposition, HISTOGRAM + "_count{", labels));
    }

    /** The value of the first line of {@code series} whose labels hold all of {@code labels}; 0 when none does. */
    private static double value(String exposition, String series, List<String> labels) {
        for (String line : exposition.split("\n")) {
            int end = line.lastIndexOf("} ");
            if (line.startsWith(series) && end > 0) {
                String set = line.substring(series.length(), end);
                if (labels.stream().allMatch(label -> set.startsWith(label) || set.contains("," + label))) {
                    return Double.parseDouble(line.substring(end + 2).trim().split(" ")[0]);
                }
            }
        }
        return 0;
    }

    /** The mean time of the requests between {@code before} and this reading, in milliseconds; NaN when none. */
    double meanMillisSince(ServerTime before) {
        long count = requests - before.requests;
        return count == 0 ? Double.NaN : (seconds - before.seconds) * 1000 / count;
    }

    long requestsSince(ServerTime before) {
        return requests - before.requests;
    }
}
