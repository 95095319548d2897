package io.profilestore.stack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the README's two commands need from this machine, checked before anything starts: a first run that lacks
 * something fails at once and names everything missing with how to get it, instead of failing a minute in on
 * the first thing it trips over. {@code ./run-local} checks what the local stack needs; {@code mvn verify}
 * (before its tests, see pom.xml) also the tools the tests run. A package apt can install (as root) counts as
 * present: once nothing is missing, {@link #prepare} installs it and fetches Cassandra and Elasticsearch, the slow
 * part of a first run, in sight of the person waiting.
 */
public final class Prerequisites {

    /** Where Debian and others put libfaketime, which the clock-skew tests preload into a JVM. */
    public static final List<Path> FAKETIME_LIBRARIES = List.of(
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
            Path.of("/usr/local/lib/faketime/libfaketime.so.1"));

    private static final Pattern NODE_VERSION = Pattern.compile("v(\\d+)\\.");

    /**
     * One thing checked: what it is, and either where it was found or what to do about it; {@code toInstall} names
     * the Debian package that {@link #prepare} installs when it is missing and may be installed.
     */
    record Finding(String what, boolean present, String detail, String toInstall) {
        static Finding found(String what, String where) {
            return new Finding(what, true, where, null);
        }

        static Finding missing(String what, String howToGetIt) {
            return new Finding(what, false, howToGetIt, null);
        }

        static Finding toInstall(String what, String debianPackage) {
            return new Finding(what, true, "not installed yet; installed with apt (" + debianPackage + ") before the "
                    + "first start", debianPackage);
        }
    }

    private final StackSettings settings;
    private final boolean root;
    private final boolean aptAvailable;

    Prerequisites(StackSettings settings, boolean root, boolean aptAvailable) {
        this.settings = settings;
        this.root = root;
        this.aptAvailable = aptAvailable;
    }

    /**
     * {@code Prerequisites tests}, run by Maven before the tests: prints what was found and prepares the machine;
     * exits 1 with what is missing.
     */
    public static void main(String[] args) {
        var settings = StackSettings.fromEnvironment();
        var check = onThisMachine(settings);
        var findings = new ArrayList<>(check.forStack());
        findings.addAll(check.forTests());
        var missing = findings.stream().filter(f -> !f.present()).toList();
        if (!missing.isEmpty()) {
            System.err.println(report("mvn verify", missing));
            System.exit(1);
        }
        findings.forEach(f -> System.out.println("  " + f.what() + ": " + f.detail()));
        try {
            check.prepare(findings, System.out::println);
        } catch (RuntimeException e) {
            System.err.println("preparing this machine for the tests failed: " + e.getMessage());
            System.exit(1);
        }
    }

    static Prerequisites onThisMachine(StackSettings settings) {
        return new Prerequisites(settings, Processes.isRoot(), Packages.aptAvailable());
    }

    /**
     * What {@code ./run-local} does first: fails with the list of what is missing for the stack, before anything
     * has started, or prepares what the stack needs.
     */
    public static void prepareForStack(StackSettings settings, Consumer<String> say) {
        var check = onThisMachine(settings);
        var findings = check.forStack();
        var missing = findings.stream().filter(f -> !f.present()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(report("./run-local", missing));
        }
        check.prepare(findings, say);
    }

    /**
     * What {@code ./faults/run} does first, before its stack starts: fails with the list of what is missing, or
     * installs it, for the stack and, when the run cuts processes off from each other (the full run), for its
     * partitions. A missing nft once stopped a full run at its first partition, seven minutes in.
     */
    public static void prepareForFaultSuite(StackSettings settings, boolean partitions, Consumer<String> say) {
        var check = onThisMachine(settings);
        var findings = check.forFaultSuite(partitions);
        var missing = findings.stream().filter(f -> !f.present()).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(report("./faults/run", missing));
        }
        check.prepare(findings, say);
    }

    /** What the fault suite needs: the stack's needs, and for partitions root, cgroup v2 and nftables. */
    List<Finding> forFaultSuite(boolean partitions) {
        var findings = new ArrayList<>(forStack());
        if (partitions) {
            findings.add(root ? Finding.found("root", "the partitions move processes between cgroups and add nftables rules")
                    : Finding.missing("root", "the full run's partitions move processes between cgroups and add nftables "
                            + "rules, which only root may (./faults/run --quick has no partitions)"));
            findings.add(CGROUP_V2.stream().filter(Files::isRegularFile).findFirst()
                    .map(p -> Finding.found("cgroup v2", p.getParent().toString()))
                    .orElseGet(() -> Finding.missing("cgroup v2", "the partitions match a process's sockets by its "
                            + "cgroup v2 (socket cgroupv2); none is mounted at /sys/fs/cgroup or /sys/fs/cgroup/unified")));
            findings.add(nftables());
        }
        return findings;
    }

    /** Where cgroup v2 shows its controllers: alone, or beside v1. */
    private static final List<Path> CGROUP_V2 = List.of(Path.of("/sys/fs/cgroup/cgroup.controllers"),
            Path.of("/sys/fs/cgroup/unified/cgroup.controllers"));

    /** Installs what the findings say apt may install, and fetches the stack's binaries (local mode). */
    void prepare(List<Finding> findings, Consumer<String> say) {
        for (var finding : findings) {
            if (finding.toInstall() != null) {
                say.accept("installing " + finding.what() + " with apt (" + finding.toInstall() + ") ...");
                Packages.install(finding.what(), finding.toInstall(), say);
            }
        }
        if (settings.mode() == StackMode.LOCAL) {
            Binaries.ensure(settings, say);
        }
    }

    static String report(String command, List<Finding> missing) {
        var text = new StringBuilder(command + " cannot run on this machine yet; it needs:");
        missing.forEach(f -> text.append("\n  - ").append(f.what()).append(": ").append(f.detail()));
        text.append("\n(docs/operations/local-stack.md, What a machine needs)");
        return text.toString();
    }

    /** What the local stack needs (nothing in the docker and external modes, which start no process here). */
    List<Finding> forStack() {
        if (settings.mode() != StackMode.LOCAL) {
            return List.of();
        }
        var findings = new ArrayList<Finding>();
        findings.add(jdk("a JDK 17 to 23 for Cassandra", () -> Jdks.forCassandra(settings)));
        findings.add(jdk("a JDK 21 or newer for Elasticsearch", () -> Jdks.forElasticsearch(settings)));
        findings.add(osPackage("PostgreSQL", "PROFILE_STORE_PG_BIN", "postgresql-15", "bin/postgres",
                PostgresServer.installed()));
        var rabbitmq = osPackage("RabbitMQ", "PROFILE_STORE_RABBITMQ_SERVER", "rabbitmq-server", "",
                RabbitMqBroker.installed());
        findings.add(rabbitmq);
        if (rabbitmq.present() && rabbitmq.toInstall() == null) {
            findings.add(command("epmd", "RabbitMQ's Erlang port mapper, which comes with Erlang (Debian: erlang-base)"));
        }
        findings.add(command("setsid", "the stack starts each service in a session of its own (Debian: util-linux)"));
        if (root) {
            // as root, Elasticsearch and PostgreSQL run as a user of the stack's own, made and switched to with these
            findings.add(command("useradd", "the stack runs as root and makes its service user (Debian: passwd)"));
            findings.add(command("setpriv", "the stack runs as root and runs services as its user (Debian: util-linux)"));
            findings.add(command("chown", "the stack runs as root and hands folders to its user (Debian: coreutils)"));
        }
        return findings;
    }

    private Finding command(String name, String why) {
        return onPath(name).map(p -> Finding.found(name, p.toString())).orElseGet(() -> Finding.missing(name, why));
    }

    /** Where Debian puts nft, off the PATH of users other than root. */
    private static final List<Path> NFT = List.of(Path.of("/usr/sbin/nft"), Path.of("/sbin/nft"));

    /** What the tests run beside the stack: the deployment tests' tools, libfaketime and nftables. */
    List<Finding> forTests() {
        var findings = new ArrayList<Finding>();
        findings.add(node());
        findings.add(onPath("npm").map(p -> Finding.found("npm", p.toString()))
                .orElseGet(() -> Finding.missing("npm", "Maven installs the manifest validator's packages with it; "
                        + "it comes with Node.js from https://nodejs.org (Debian's own npm brings Debian's Node.js 18, "
                        + "too old)")));
        findings.add(onPath("kubectl").map(p -> Finding.found("kubectl", p.toString()))
                .orElseGet(() -> Finding.missing("kubectl", "the deployment tests render the Flux overlays with "
                        + "`kubectl kustomize` (any kubectl 1.2x: https://kubernetes.io/docs/tasks/tools/)")));
        findings.add(onPath("yamllint").map(p -> Finding.found("yamllint", p.toString()))
                .orElseGet(() -> installable("yamllint", "yamllint")));
        // the console's browser tests drive Debian's Chromium through its ChromeDriver (Selenium)
        findings.add(onPath("chromium").map(p -> Finding.found("Chromium", p.toString()))
                .orElseGet(() -> installable("Chromium", "chromium")));
        findings.add(onPath("chromedriver").map(p -> Finding.found("ChromeDriver", p.toString()))
                .orElseGet(() -> installable("ChromeDriver", "chromium-driver")));
        findings.add(FAKETIME_LIBRARIES.stream().filter(Files::isRegularFile).findFirst()
                .map(p -> Finding.found("libfaketime", p.toString()))
                .orElseGet(() -> installable("libfaketime", "libfaketime")));
        // the fault suite cuts nodes and processes off from each other with nftables rules on the loopback addresses
        findings.add(nftables());
        return findings;
    }

    private Finding nftables() {
        return NFT.stream().filter(Files::isExecutable).findFirst().or(() -> onPath("nft"))
                .map(p -> Finding.found("nftables", p.toString()))
                .orElseGet(() -> installable("nftables", "nftables"));
    }

    /** Where nft is: Debian puts it in /usr/sbin, off the PATH of users other than root. */
    public static Optional<Path> nftOnThisMachine() {
        return NFT.stream().filter(Files::isExecutable).findFirst().or(() -> onThePath("nft"));
    }

    private interface JdkLookup {
        Jdks.Jdk find();
    }

    private static Finding jdk(String what, JdkLookup lookup) {
        try {
            var jdk = lookup.find();
            return Finding.found(what, "JDK " + jdk.major() + " at " + jdk.home());
        } catch (IllegalStateException e) {
            return Finding.missing(what, e.getMessage());
        }
    }

    private Finding osPackage(String what, String variable, String debianPackage, String executable,
            Optional<Path> installed) {
        String explicit = settings.lookup().apply(variable);
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit.trim());
            return Files.exists(executable.isEmpty() ? path : path.resolve(executable))
                    ? Finding.found(what, path + " (" + variable + ")")
                    : Finding.missing(what, variable + "=" + explicit + " names nothing there");
        }
        return installed.map(p -> Finding.found(what, p.toString()))
                .orElseGet(() -> installable(what, debianPackage));
    }

    private Finding installable(String what, String debianPackage) {
        if (root && aptAvailable) {
            return Finding.toInstall(what, debianPackage);
        }
        return Finding.missing(what, "install it (Debian: sudo apt-get install " + debianPackage
                + "), or run as root on Debian, where it is installed when first needed");
    }

    private Finding node() {
        var node = onPath("node");
        if (node.isEmpty()) {
            return Finding.missing("Node.js 20 or newer", "the manifest validator runs on it (https://nodejs.org; "
                    + "Debian 12's own nodejs is 18, too old)");
        }
        String version;
        try {
            version = Processes.run(Duration.ofSeconds(20), node.get().toString(), "--version").trim();
        } catch (IllegalStateException e) {
            return Finding.missing("Node.js 20 or newer", node.get() + " --version failed: " + e.getMessage());
        }
        Matcher matcher = NODE_VERSION.matcher(version);
        if (!matcher.find() || Integer.parseInt(matcher.group(1)) < 20) {
            return Finding.missing("Node.js 20 or newer", node.get() + " is " + version);
        }
        return Finding.found("Node.js 20 or newer", node.get() + " (" + version + ")");
    }

    /** The first executable of that name on this process's PATH. */
    public static Optional<Path> onThePath(String command) {
        return onPath(command, System.getenv("PATH"));
    }

    private Optional<Path> onPath(String command) {
        return onPath(command, settings.lookup().apply("PATH"));
    }

    private static Optional<Path> onPath(String command, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(":")) {
            if (!dir.isBlank()) {
                Path candidate = Path.of(dir, command);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
