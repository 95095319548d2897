package io.profilestore.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs hold together: every relative link and anchor of every Markdown file resolves, the README and docs/ keep
 * lines a terminal shows whole, the README stays a front door, and the commands it shows exist. Reads files only.
 */
class DocsTest {

    static final int MAX_LINE = 120;
    static final int MAX_README_LINES = 200;

    /** The Markdown files whose lines must fit {@link #MAX_LINE}, as paths from the project directory. */
    static final List<String> SHORT_LINED = List.of("README.md", "docs/", "bench/README.md", "faults/README.md",
            "image/README.md", "helm/README.md", "flux/README.md");

    /** Maven's lifecycle phases (default, clean and site): what the README may ask of {@code mvn}. */
    static final Set<String> PHASES = Set.of("validate", "initialize", "generate-sources", "process-sources",
            "generate-resources", "process-resources", "compile", "process-classes", "generate-test-sources",
            "process-test-sources", "generate-test-resources", "process-test-resources", "test-compile",
            "process-test-classes", "test", "prepare-package", "package", "pre-integration-test",
            "integration-test", "post-integration-test", "verify", "install", "deploy", "pre-clean", "clean",
            "post-clean", "pre-site", "site", "post-site", "site-deploy");

    /** Options of {@code mvn} whose value is the next word, which is then no phase. */
    static final Set<String> MVN_OPTIONS_WITH_VALUE = Set.of("-f", "--file", "-pl", "--projects", "-P",
            "--activate-profiles", "-s", "--settings", "-T", "--threads", "-rf", "--resume-from");

    static final Set<String> SKIPPED_FOLDERS = Set.of("target", "node_modules", ".git");

    static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    static final Pattern INLINE_LINK =
            Pattern.compile("!?\\[([^\\]]*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    static final Pattern LINK_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");
    static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    static final Path PROJECT = Path.of(System.getProperty("profileStore.projectDir", ""))
            .toAbsolutePath().normalize();

    /** A Markdown file, read once: its lines and, outside code blocks, where its links are. */
    record Markdown(Path path, List<String> lines, List<Boolean> inCode) {

        static Markdown read(Path path) {
            try {
                var lines = Files.readAllLines(path, StandardCharsets.UTF_8);
                var inCode = new ArrayList<Boolean>();
                boolean fenced = false;
                for (var line : lines) {
                    boolean fence = FENCE.matcher(line).find();
                    inCode.add(fenced || fence);
                    if (fence) {
                        fenced = !fenced;
                    }
                }
                return new Markdown(path, lines, inCode);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String name() {
            return PROJECT.relativize(path).toString();
        }

        /** GitHub's anchors of this file's headings: a duplicate heading gets -1, -2... */
        Set<String> anchors() {
            var anchors = new HashSet<String>();
            var seen = new HashMap<String, Integer>();
            for (int i = 0; i < lines.size(); i++) {
                Matcher heading = HEADING.matcher(lines.get(i));
                if (!inCode.get(i) && heading.matches()) {
                    String slug = slug(heading.group(2));
                    int count = seen.merge(slug, 1, Integer::sum);
                    anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
                }
            }
            return anchors;
        }

        /** The targets of the links outside code, by line (1-based), in the order they appear. */
        List<Link> links() {
            var links = new ArrayList<Link>();
            for (int i = 0; i < lines.size(); i++) {
                if (inCode.get(i)) {
                    continue;
                }
                String text = CODE_SPAN.matcher(lines.get(i)).replaceAll("");
                Matcher inline = INLINE_LINK.matcher(text);
                while (inline.find()) {
                    links.add(new Link(this, i + 1, inline.group(2)));
                }
                Matcher definition = LINK_DEFINITION.matcher(text);
                if (definition.find()) {
                    links.add(new Link(this, i + 1, definition.group(1)));
                }
            }
            return links;
        }

        /** The lines of the fenced code blocks, with their numbers (1-based). */
        Map<Integer, String> codeLines() {
            var code = new HashMap<Integer, String>();
            for (int i = 0; i < lines.size(); i++) {
                if (inCode.get(i) && !FENCE.matcher(lines.get(i)).find()) {
                    code.put(i + 1, lines.get(i));
                }
            }
            return code;
        }
    }

    record Link(Markdown from, int line, String target) {

        boolean relative() {
            return !target.isEmpty() && !SCHEME.matcher(target).find();
        }

        @Override
        public String toString() {
            return from.name() + ":" + line + ": (" + target + ")";
        }
    }

    /** GitHub's slug of a heading: its text lower-cased, punctuation dropped, each space a hyphen. */
    static String slug(String heading) {
        String text = INLINE_LINK.matcher(heading).replaceAll("$1").replace("`", "").replace("*", "");
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
    }

    /** Every Markdown file of the project but what a build makes or fetches (and Git's own). */
    static List<Markdown> markdownFiles() throws IOException {
        var files = new ArrayList<Path>();
        Files.walkFileTree(PROJECT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                return SKIPPED_FOLDERS.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (file.getFileName().toString().endsWith(".md")) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return files.stream().sorted().map(Markdown::read).toList();
    }

    @Test
    void everyRelativeLinkNamesAFileAndEveryAnchorAHeading() throws IOException {
        var files = markdownFiles();
        var anchorsByFile = new HashMap<Path, Set<String>>();
        var broken = new ArrayList<String>();
        int links = 0;
        int anchors = 0;
        for (var file : files) {
            for (var link : file.links()) {
                if (!link.relative()) {
                    continue;
                }
                links++;
                int hash = link.target().indexOf('#');
                String path = hash < 0 ? link.target() : link.target().substring(0, hash);
                String anchor = hash < 0 ? "" : link.target().substring(hash + 1);
                path = URLDecoder.decode(path, StandardCharsets.UTF_8);
                Path target = path.isEmpty() ? file.path()
                        : path.startsWith("/") ? PROJECT.resolve(path.substring(1)).normalize()
                        : file.path().resolveSibling(path).normalize();
                if (!Files.exists(target)) {
                    broken.add(link + ": " + PROJECT.relativize(target) + " does not exist");
                } else if (!anchor.isEmpty()) {
                    anchors++;
                    if (!target.toString().endsWith(".md")) {
                        broken.add(link + ": an anchor into a file that is not Markdown");
                    } else if (!anchorsByFile.computeIfAbsent(target, t -> Markdown.read(t).anchors())
                            .contains(anchor)) {
                        broken.add(link + ": no heading of " + PROJECT.relativize(target) + " has the anchor #"
                                + anchor);
                    }
                }
            }
        }
        assertThat(files).as("the project's Markdown files").extracting(Markdown::name)
                .contains("README.md", "bench/README.md", "faults/README.md");
        assertThat(links).as("relative links checked").isGreaterThan(20);
        assertThat(anchors).as("anchors checked").isGreaterThan(5);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void theReadmeAndTheDocsKeepTheirLinesShort() throws IOException {
        var tooLong = new ArrayList<String>();
        int lines = 0;
        for (var file : markdownFiles()) {
            if (SHORT_LINED.stream().noneMatch(name -> file.name().equals(name)
                    || name.endsWith("/") && file.name().startsWith(name))) {
                continue;
            }
            for (int i = 0; i < file.lines().size(); i++) {
                lines++;
                int length = file.lines().get(i).codePointCount(0, file.lines().get(i).length());
                if (length > MAX_LINE) {
                    tooLong.add(file.name() + ":" + (i + 1) + ": " + length + " characters");
                }
            }
        }
        assertThat(lines).as("lines checked").isGreaterThan(MAX_README_LINES);
        assertThat(tooLong).as("lines over %d characters", MAX_LINE).isEmpty();
    }

    /**
     * A table row right after a line of prose is that prose's continuation, not a row: a paragraph put inside a table
     * cuts it in two, and the rows after it render as text with pipes.
     */
    @Test
    void everyTableRowFollowsABlankLineOrAnotherRow() throws IOException {
        var strayRows = new ArrayList<String>();
        int rows = 0;
        for (var file : markdownFiles()) {
            boolean inCode = false;
            for (int i = 0; i < file.lines().size(); i++) {
                String line = file.lines().get(i);
                if (line.startsWith("```")) {
                    inCode = !inCode;
                }
                if (inCode || !line.startsWith("|")) {
                    continue;
                }
                rows++;
                String before = i == 0 ? "" : file.lines().get(i - 1);
                if (!before.isBlank() && !before.startsWith("|")) {
                    strayRows.add(file.name() + ":" + (i + 1) + ": a row after prose");
                }
            }
        }
        assertThat(rows).as("table rows checked").isGreaterThan(50);
        assertThat(strayRows).as("table rows cut off from their table").isEmpty();
    }

    @Test
    void theReadmeIsAFrontDoor() {
        var readme = Markdown.read(PROJECT.resolve("README.md"));
        assertThat(readme.lines().size()).as("README.md's number of lines").isBetween(1, MAX_README_LINES);
    }

    @Test
    void everyCommandTheReadmeShowsExistsAndAsksMavenForPhasesOnly() {
        var readme = Markdown.read(PROJECT.resolve("README.md"));
        var wrong = new ArrayList<String>();
        int scripts = 0;
        int phases = 0;
        for (var line : readme.codeLines().entrySet()) {
            String code = line.getValue().replaceFirst("\\s+#.*$", "").replaceFirst("^\\s*#.*$", "");
            for (String command : code.split("&&|\\|\\||;|\\|")) {
                var words = command.trim().split("\\s+");
                String where = "README.md:" + line.getKey() + ": ";
                if (words[0].startsWith("./")) {
                    scripts++;
                    Path script = PROJECT.resolve(words[0]).normalize();
                    if (!Files.isRegularFile(script) || !Files.isExecutable(script)) {
                        wrong.add(where + words[0] + " is no executable file of the project");
                    }
                } else if (words[0].equals("mvn")) {
                    for (int i = 1; i < words.length; i++) {
                        if (MVN_OPTIONS_WITH_VALUE.contains(words[i])) {
                            i++;
                        } else if (!words[i].startsWith("-")) {
                            phases++;
                            if (!PHASES.contains(words[i])) {
                                wrong.add(where + "mvn " + words[i] + " is no lifecycle phase");
                            }
                        }
                    }
                }
            }
        }
        assertThat(scripts).as("./ commands checked").isPositive();
        assertThat(phases).as("mvn phases checked").isPositive();
        assertThat(wrong).as("commands of the README").isEmpty();
    }
}
