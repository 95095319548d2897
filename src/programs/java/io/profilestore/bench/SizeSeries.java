package io.profilestore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same scenarios at several sizes of the dataset ({@code ./bench/run --sizes 100000,1000000,3000000}): each
 * size's run writes its own folder, and this puts them together, a table of each scenario's p50 and p99 at each size
 * ({@code README.md}) and a plot of both against the size, per scenario ({@code report.html}, SVG, no script).
 *
 * <pre>
 * java ... io.profilestore.bench.SizeSeries OUT "COMMAND" RUN_DIR...
 * </pre>
 */
final class SizeSeries {

    /** One scenario at one size. Latencies in ms; NaN where the run measured none (the import's rates). */
    record Point(long profiles, double achieved, double p50, double p99, double allP99, long errors, long timeouts) {
    }

    private SizeSeries() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        var runs = new ArrayList<Path>();
        for (int i = 2; i < args.length; i++) {
            runs.add(Path.of(args[i]));
        }
        var series = read(runs);
        String markdown = markdown(args[1], runs, series);
        Files.writeString(out.resolve("README.md"), markdown);
        Files.writeString(out.resolve("report.html"), html(series, markdown));
        System.out.println("size series: " + out.resolve("README.md").toAbsolutePath());
    }

    /** Each scenario, in the order the runs measured them, with its points by size (smallest first). */
    static Map<String, List<Point>> read(List<Path> runs) throws IOException {
        var series = new LinkedHashMap<String, List<Point>>();
        for (var run : runs) {
            JsonNode root = Bench.JSON.readTree(run.resolve(Report.RESULTS_JSON).toFile());
            long profiles = root.path("profiles").asLong();
            for (var row : root.path("results")) {
                series.computeIfAbsent(row.path("scenario").asText(), s -> new ArrayList<>()).add(new Point(profiles,
                        row.path("achieved").asDouble(), row.path("p50").asDouble(Double.NaN),
                        row.path("p99").asDouble(Double.NaN), row.path("allP99").asDouble(Double.NaN),
                        row.path("errors").asLong(), row.path("timeouts").asLong()));
            }
        }
        series.values().forEach(points -> points.sort((a, b) -> Long.compare(a.profiles(), b.profiles())));
        return series;
    }

    static String markdown(String command, List<Path> runs, Map<String, List<Point>> series) {
        var sizes = series.values().stream().flatMap(List::stream).map(Point::profiles).distinct().sorted().toList();
        var md = new StringBuilder("# profile-store benchmark: cost as the data grows, " + LocalDate.now() + "\n\n");
        md.append("Command: `").append(command).append("`. The same scenarios at each size, each size's run on the ")
                .append("data of the one before and the profiles beyond it; each run's own report: ");
        for (int i = 0; i < runs.size(); i++) {
            String name = runs.get(i).getFileName().toString();
            md.append(i == 0 ? "" : ", ").append('[').append(name).append("](").append(name).append("/README.md)");
        }
        md.append(".\n\nEach cell: p50 / p99 of the successes, in milliseconds; errors and timeouts after them when ")
                .append("there were any. `report.html` plots both against the size.\n\n| scenario |");
        sizes.forEach(size -> md.append(String.format(" %,d |", size)));
        md.append("\n| --- |").append(" ---: |".repeat(sizes.size())).append('\n');
        series.forEach((scenario, points) -> {
            if (points.stream().allMatch(p -> Double.isNaN(p.p50()))) {
                return; // a rate, no latencies (the import)
            }
            md.append("| ").append(scenario).append(" |");
            for (var size : sizes) {
                var point = points.stream().filter(p -> p.profiles() == size).findFirst();
                md.append(' ').append(point.map(SizeSeries::cell).orElse("")).append(" |");
            }
            md.append('\n');
        });
        return md.toString();
    }

    private static String cell(Point p) {
        String cell = Double.isNaN(p.p50()) ? "-" : String.format("%.2f / %.2f", p.p50(), p.p99());
        if (p.errors() > 0) {
            cell += String.format(" (%,d errors)", p.errors());
        }
        if (p.timeouts() > 0) {
            cell += String.format(" (%,d timeouts)", p.timeouts());
        }
        return cell;
    }

    static String html(Map<String, List<Point>> series, String markdown) {
        var html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\">")
                .append("<title>profile-store benchmark: cost as the data grows</title>")
                .append("<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}svg{background:#fafafa;")
                .append("margin:4px}pre{white-space:pre-wrap;font-size:12px}</style></head><body>")
                .append("<h1>profile-store benchmark: cost as the data grows</h1>")
                .append("<p>Each scenario's p50 (<span style=\"color:#1f77b4\">blue</span>) and p99 ")
                .append("(<span style=\"color:#d62728\">red</span>) in ms against the profiles loaded (log scale).</p>");
        series.forEach((scenario, points) -> {
            if (points.stream().anyMatch(p -> !Double.isNaN(p.p50()))) {
                html.append(svg(scenario, points));
            }
        });
        html.append("<h2>The table</h2><pre>").append(escape(markdown)).append("</pre></body></html>");
        return html.toString();
    }

    /** One scenario: p50 and p99 against the size, the size on a log scale. */
    static String svg(String scenario, List<Point> points) {
        int width = 480;
        int height = 240;
        int left = 55;
        int right = 20;
        int top = 30;
        int bottom = 35;
        var measured = points.stream().filter(p -> !Double.isNaN(p.p50())).toList();
        double minX = Math.log10(measured.get(0).profiles());
        double maxX = Math.log10(measured.get(measured.size() - 1).profiles());
        double maxY = Math.max(0.1, measured.stream().mapToDouble(Point::p99).max().orElse(1)) * 1.1;
        var svg = new StringBuilder(String.format("<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">",
                width, height));
        svg.append(String.format("<text x=\"%d\" y=\"16\" font-size=\"12\">%s</text>", left, escape(scenario)));
        for (int i = 0; i <= 4; i++) {
            double y = height - bottom - (height - bottom - top) * i / 4.0;
            svg.append(String.format("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, y,
                    width - right, y));
            svg.append(String.format("<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.1f ms</text>",
                    left - 4, y + 3, maxY * i / 4));
        }
        for (var p : measured) {
            double x = x(p.profiles(), minX, maxX, left, width - right);
            svg.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%,d</text>", x,
                    height - bottom + 14, p.profiles()));
        }
        for (var line : List.of(Map.entry("#1f77b4", true), Map.entry("#d62728", false))) {
            var polyline = new StringBuilder();
            for (var p : measured) {
                double x = x(p.profiles(), minX, maxX, left, width - right);
                double y = height - bottom - (height - bottom - top) * (line.getValue() ? p.p50() : p.p99()) / maxY;
                polyline.append(String.format("%.1f,%.1f ", x, y));
                svg.append(String.format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>", x, y, line.getKey()));
            }
            svg.append(String.format("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>",
                    line.getKey(), polyline.toString().strip()));
        }
        return svg.append("</svg>").toString();
    }

    /** A size's place on the x axis; a single size sits in the middle. */
    private static double x(long profiles, double minX, double maxX, int from, int to) {
        return maxX == minX ? (from + to) / 2.0 : from + (to - from) * (Math.log10(profiles) - minX) / (maxX - minX);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
