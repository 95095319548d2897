package io.profilestore.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.DoubleAdder;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Where the machine's CPU went, second by second, while the benchmark ran: each backing service, the benchmark's
 * JVM split into the service, the load generator, the collector and the JIT, the rest of the machine, and the time
 * the hypervisor gave to others ({@code steal}). Also how long the collector stopped the service in each second.
 * Everything runs on the same two cores, so a slow second is explained, or not, by what else ran in it.
 *
 * <p>Read from {@code /proc} (Linux): each process's and each of our threads' CPU ticks, and the machine's in
 * {@code /proc/stat}. A process is put in a group by its command line, a thread of ours by its name.
 */
final class CpuMeter implements AutoCloseable {

    /** The groups, in the order the report shows them. */
    static final List<String> GROUPS = List.of("service", "load", "gc", "jit", "cassandra", "elasticsearch",
            "postgresql", "rabbitmq", "other", "steal", "idle");

    /** One sample: the cores each group used since the previous one, and the collector's pauses in it. */
    record Second(long atNanos, Map<String, Double> cores, double gcPausedMillis) {
    }

    // /proc counts in clock ticks; USER_HZ is 100 on every Linux we run (getconf CLK_TCK)
    private static final double TICKS_PER_SECOND = 100;
    private static final long SELF = ProcessHandle.current().pid();

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(run -> {
        var thread = new Thread(run, "cpu-meter");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Second> seconds = new ArrayList<>();
    private final Map<String, Long> lastTicks = new HashMap<>();
    private final Map<Long, String> groupOfProcess = new HashMap<>();
    private final DoubleAdder pausedMillis = new DoubleAdder();
    /** The machine's busy, steal and idle ticks at the last sample. */
    private long[] lastMachine;
    private long lastAt;

    private CpuMeter() {
    }

    /** Starts sampling once a second; {@code null} where there is no {@code /proc} to read. */
    static CpuMeter start() {
        if (!Files.isReadable(Path.of("/proc/stat"))) {
            return null;
        }
        var meter = new CpuMeter();
        meter.listenToCollector();
        meter.sample();
        meter.timer.scheduleAtFixedRate(meter::sample, 1, 1, TimeUnit.SECONDS);
        return meter;
    }

    /** The samples taken between two {@link System#nanoTime()} readings. */
    synchronized List<Second> between(long fromNanos, long toNanos) {
        return seconds.stream().filter(s -> s.atNanos() > fromNanos && s.atNanos() <= toNanos + 1_000_000_000L).toList();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** Pauses only: G1's and the serial collector's beans report stop-the-world collections, ZGC's "Pauses" bean. */
    private void listenToCollector() {
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = collector.getName();
            if (name.contains("Cycles") || name.contains("Concurrent")) {
                continue;
            }
            ((NotificationEmitter) collector).addNotificationListener((notification, handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                    pausedMillis.add(info.getGcInfo().getDuration());
                }
            }, null, null);
        }
    }

    private synchronized void sample() {
        try {
            long at = System.nanoTime();
            var ticks = new HashMap<String, Long>();
            for (var group : GROUPS) {
                ticks.put(group, 0L);
            }
            long[] machine = machineTicks();
            long busy = machine[0];
            long[] known = {0};
            try (var processes = Files.list(Path.of("/proc"))) {
                processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                    long pid = Long.parseLong(p.getFileName().toString());
                    if (pid == SELF) {
                        return;
                    }
                    String group = groupOfProcess.computeIfAbsent(pid, CpuMeter::groupOf);
                    if (!group.isEmpty()) {
                        long used = cumulative("p" + pid, ticksOf(p.resolve("stat")));
                        ticks.merge(group, used, Long::sum);
                        known[0] += used;
                    }
                });
            }
            try (var threads = Files.list(Path.of("/proc/self/task"))) {
                threads.forEach(t -> {
                    String group = groupOfThread(read(t.resolve("comm")).strip());
                    long used = cumulative("t" + t.getFileName(), ticksOf(t.resolve("stat")));
                    ticks.merge(group, used, Long::sum);
                    known[0] += used;
                });
            }
            ticks.put("other", Math.max(0, busy - known[0]));
            ticks.put("steal", machine[1]);
            ticks.put("idle", machine[2]);
            if (lastMachine != null) {
                double seconds = (at - lastAt) / 1e9;
                var cores = new HashMap<String, Double>();
                ticks.forEach((group, used) -> cores.put(group, used / TICKS_PER_SECOND / seconds));
                this.seconds.add(new Second(at, cores, pausedMillis.sumThenReset()));
            } else {
                pausedMillis.reset();
            }
            lastMachine = new long[] {machine[3], machine[4], machine[5]};
            lastAt = at;
        } catch (IOException | RuntimeException e) {
            // a process that ended while it was read, or /proc changing under us: this second is lost, not the run
        }
    }

    /** Ticks since the last sample of this process or thread (all of them the first time it is seen after the start). */
    private long cumulative(String key, long total) {
        Long last = lastTicks.put(key, total);
        if (last == null) {
            return lastMachine == null ? 0 : total;
        }
        return Math.max(0, total - last);
    }

    /** The machine's busy, steal and idle ticks since the last sample, from the first line of /proc/stat. */
    private long[] machineTicks() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long user = Long.parseLong(f[1]) + Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]) + Long.parseLong(f[6]) + Long.parseLong(f[7]);
        long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        long[] totals = {user + system, Long.parseLong(f[8]), idle};
        long[] since = new long[3];
        for (int i = 0; lastMachine != null && i < 3; i++) {
            since[i] = totals[i] - lastMachine[i];
        }
        return new long[] {since[0], since[1], since[2], totals[0], totals[1], totals[2]};
    }

    /** utime + stime of a /proc/.../stat line: the 14th and 15th fields, counted after the command's parenthesis. */
    private static long ticksOf(Path stat) {
        String line = read(stat);
        if (line.isEmpty()) {
            return 0;
        }
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** A backing service's group by the process's command line; empty for anything else ("other"). */
    private static String groupOf(long pid) {
        String command = read(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
        if (command.contains("org.apache.cassandra")) {
            return "cassandra";
        }
        if (command.contains("org.elasticsearch")) {
            return "elasticsearch";
        }
        if (command.startsWith("postgres") || command.contains("/postgresql/")) {
            return "postgresql";
        }
        if (command.contains("beam.smp") || command.contains("rabbit") || command.contains("erl_child_setup")
                || command.contains("epmd") || command.contains("inet_gethost")) {
            return "rabbitmq";
        }
        return "";
    }

    /**
     * The benchmark's JVM runs the service and the load generator: the load is the HTTP client's threads, the
     * thread that starts requests on time ({@code java}, the main thread) and the closed loops' pools.
     */
    static String groupOfThread(String name) {
        if (name.startsWith("httpclient-") || name.equals("java") || name.startsWith("pool-") || name.equals("cpu-meter")) {
            return "load";
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("Z") || name.equals("VM Thread")) {
            return "gc";
        }
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return "jit";
        }
        return "service";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
