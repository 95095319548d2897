package io.profilestore.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Where the machine's CPU went while the benchmark ran, sampled about once a second: each backing service, the
 * benchmark's JVM split into the service, the load generator, the collector and the JIT, the rest of the machine,
 * and the time the hypervisor gave to others; and how long the collector stopped the JVM. Everything runs on the
 * same two cores, so a slow second is explained, or not, by what else ran in it.
 *
 * <p>Read from {@code /proc} (Linux): each process's and each of our threads' CPU ticks, and the machine's in
 * {@code /proc/stat}. A process is put in a group by its command line, a thread of ours by its name (the load
 * generator's threads are all named {@code bench-}).
 */
final class CpuMeter implements AutoCloseable {

    /** The groups, in the order the report shows them. */
    enum Group {
        SERVICE, LOAD, GC, JIT, ENDED, CASSANDRA, ELASTICSEARCH, POSTGRESQL, RABBITMQ, OTHER, STEAL, IDLE;

        /** The backing services: a group of processes that may not be on this machine at all (an external stack). */
        static final Set<Group> PROCESSES = EnumSet.of(CASSANDRA, ELASTICSEARCH, POSTGRESQL, RABBITMQ);

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One sample: the ticks (1/100 s of one core) each group used between two readings, the machine's ticks in the
     * same time (every CPU's, busy, idle and steal: the sample's length by the kernel's clock), the collector's
     * pauses reported in it, and which backing services had a process on the machine.
     */
    record Sample(long fromNanos, long toNanos, Map<Group, Long> ticks, long machineTicks, long pausedMillis,
            Set<Group> present) {
    }

    /** Samples put together over a span: the cores each group used on average, pauses in ms a second. */
    record Usage(Map<Group, Double> cores, double pausedMillisPerSecond, Set<Group> present, double seconds) {

        /** The cores of a group, or empty where it is a backing service with no process here. */
        OptionalDouble of(Group group) {
            return Group.PROCESSES.contains(group) && !present.contains(group) ? OptionalDouble.empty()
                    : OptionalDouble.of(cores.get(group));
        }
    }

    // /proc counts in clock ticks; USER_HZ is 100 on every Linux we run (getconf CLK_TCK)
    static final double TICKS_PER_SECOND = 100;

    private static final Set<String> COLLECTOR_THREADS = Set.of("GC Thread", "G1 ", "VM Thread", "ZDirector", "ZDriver",
            "ZWorker", "ZRuntimeWorke", "ZStat", "ZUncommit", "ZUnmapper");

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(run -> {
        var thread = new Thread(run, "bench-cpu-meter");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Sample> samples = new ArrayList<>();
    private final AtomicLong pausedMillis = new AtomicLong();
    private final AtomicLong failedSamples = new AtomicLong();
    private final AtomicLong lateSamples = new AtomicLong();
    private final int cpus;
    private final Map<NotificationEmitter, NotificationListener> listeners = new HashMap<>();
    private final long self = ProcessHandle.current().pid();
    /** Each process's and thread's ticks at the last sample, by pid or tid and start time (ids are reused). */
    private Map<String, Long> lastTicks = Map.of();
    private final Map<String, Group> groupOfProcess = new HashMap<>();
    private long[] lastMachine;
    private long lastSelf;
    private long lastAt;
    private long lastUptimeTicks;

    private CpuMeter(int cpus) {
        this.cpus = cpus;
    }

    /** Starts sampling about once a second; {@code null} where there is no {@code /proc} to read. */
    static CpuMeter start() {
        if (!Files.isReadable(Path.of("/proc/stat")) || !Files.isReadable(Path.of("/proc/self/task"))) {
            return null;
        }
        CpuMeter meter;
        try {
            meter = new CpuMeter(countCpus());
        } catch (IOException e) {
            return null;
        }
        meter.listenToCollector();
        meter.sampleNow();
        // with a fixed delay a late sample is followed by a whole second, not by a short one of few ticks
        meter.timer.scheduleWithFixedDelay(meter::sampleNow, 1, 1, TimeUnit.SECONDS);
        return meter;
    }

    /** The samples that overlap a span of {@link System#nanoTime()}, put together by how much of each it covers. */
    synchronized Usage between(long fromNanos, long toNanos) {
        return usage(samples, fromNanos, toNanos, cpus);
    }

    /** The samples that overlap a span of {@link System#nanoTime()}. */
    synchronized List<Sample> samples(long fromNanos, long toNanos) {
        return samples.stream().filter(s -> s.toNanos() > fromNanos && s.fromNanos() < toNanos).toList();
    }

    /** Samples that could not be read (a process that vanished mid-read, say): their ticks fall into the next one. */
    long failedSamples() {
        return failedSamples.get();
    }

    /**
     * Samples whose readings disagreed by more than 5% of their length: on a starved machine the meter's own reads
     * of /proc spread over seconds, and a group read later than the machine's total seems to have used more.
     */
    long lateSamples() {
        return lateSamples.get();
    }

    int cpus() {
        return cpus;
    }

    /**
     * Each sample counts by the share of it within the span, so a sample half in a scenario's warm-up counts half.
     * Cores are ticks over the machine's own ticks (times its CPUs), so the groups add up to the machine however
     * late the meter woke.
     */
    static Usage usage(List<Sample> samples, long fromNanos, long toNanos, int cpus) {
        var ticks = new EnumMap<Group, Double>(Group.class);
        double machine = 0;
        double covered = 0;
        double paused = 0;
        var present = EnumSet.noneOf(Group.class);
        for (var sample : samples) {
            long overlap = Math.min(toNanos, sample.toNanos()) - Math.max(fromNanos, sample.fromNanos());
            if (overlap <= 0) {
                continue;
            }
            double share = (double) overlap / (sample.toNanos() - sample.fromNanos());
            for (var group : Group.values()) {
                ticks.merge(group, sample.ticks().getOrDefault(group, 0L) * share, Double::sum);
            }
            machine += sample.machineTicks() * share;
            covered += overlap / 1e9;
            paused += sample.pausedMillis() * share;
            present.addAll(sample.present());
        }
        var cores = new EnumMap<Group, Double>(Group.class);
        for (var group : Group.values()) {
            cores.put(group, machine == 0 ? 0 : ticks.getOrDefault(group, 0.0) / machine * cpus);
        }
        return new Usage(cores, covered == 0 ? 0 : paused / covered, present, covered);
    }

    /** Takes a sample now (the timer does every second); returns when it ended, in {@link System#nanoTime()}. */
    synchronized long sampleNow() {
        try {
            sample();
        } catch (IOException | RuntimeException e) {
            // a process that ended while it was read, /proc changing under us: this sample's ticks go to the next
            failedSamples.incrementAndGet();
        }
        return lastAt;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        listeners.forEach((emitter, listener) -> {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // gone already
            }
        });
    }

    /**
     * The collector's stop-the-world pauses, as its beans report them: G1's young and full collections (and, from
     * JDK 20, the remark and cleanup pauses of "G1 Concurrent GC"), ZGC's "Pauses"; not the "Cycles" beans, whose
     * durations are concurrent work. A pause counts in the sample its notification arrives in.
     */
    private void listenToCollector() {
        for (var collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector.getName().contains("Cycles")) {
                continue;
            }
            NotificationListener listener = (Notification notification, Object handback) -> {
                if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                    var info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                    pausedMillis.addAndGet(info.getGcInfo().getDuration());
                }
            };
            ((NotificationEmitter) collector).addNotificationListener(listener, null, null);
            listeners.put((NotificationEmitter) collector, listener);
        }
    }

    /** Reads everything first and changes the meter's state only once the whole sample was read. */
    private void sample() throws IOException {
        long uptimeTicks = uptimeTicks();
        var nowTicks = new HashMap<String, Long>();
        var ticks = new EnumMap<Group, Long>(Group.class);
        var present = EnumSet.noneOf(Group.class);
        var groups = new HashMap<String, Group>();
        long backing = 0;
        try (var processes = Files.list(Path.of("/proc"))) {
            for (var dir : (Iterable<Path>) processes::iterator) {
                String name = dir.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit) || Long.parseLong(name) == self) {
                    continue;
                }
                String[] stat = stat(dir.resolve("stat"));
                if (stat == null) {
                    continue;
                }
                String key = "p" + name + ":" + stat[19];
                Group group = groupOfProcess.containsKey(key) ? groupOfProcess.get(key) : groupOf(dir);
                groups.put(key, group);
                if (group != null) {
                    long used = since(key, ticksOf(stat), startTicks(stat), nowTicks);
                    ticks.merge(group, used, Long::sum);
                    present.add(group);
                    backing += used;
                }
            }
        }
        long threads = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (var dir : (Iterable<Path>) tasks::iterator) {
                String[] stat = stat(dir.resolve("stat"));
                if (stat == null) {
                    continue;
                }
                long used = since("t" + dir.getFileName() + ":" + stat[19], ticksOf(stat), startTicks(stat), nowTicks);
                ticks.merge(groupOfThread(commOf(dir)), used, Long::sum);
                threads += used;
            }
        }
        // read right after the scan, close together: the sample ends here for every group
        long selfTicks = ticksOf(stat(Path.of("/proc/self/stat")));
        long[] machine = machineTicks();
        long at = System.nanoTime();
        if (lastMachine != null) {
            long jvm = selfTicks - lastSelf;
            long busy = machine[0] - lastMachine[0];
            long length = busy + machine[1] - lastMachine[1] + machine[2] - lastMachine[2];
            // what threads that ended since the last sample used: in the process's total, in no live thread
            long ended = jvm - threads;
            long other = busy - Math.max(jvm, threads) - backing;
            if (Math.max(0, -ended) + Math.max(0, -other) > 0.05 * length) {
                lateSamples.incrementAndGet();
            }
            ticks.put(Group.ENDED, Math.max(0, ended));
            ticks.put(Group.OTHER, Math.max(0, other));
            ticks.put(Group.STEAL, machine[1] - lastMachine[1]);
            ticks.put(Group.IDLE, machine[2] - lastMachine[2]);
            samples.add(new Sample(lastAt, at, ticks, length, pausedMillis.getAndSet(0), present));
        } else {
            pausedMillis.set(0);
        }
        lastTicks = nowTicks;
        groupOfProcess.clear();
        groupOfProcess.putAll(groups);
        lastMachine = machine;
        lastSelf = selfTicks;
        lastAt = at;
        lastUptimeTicks = uptimeTicks;
    }

    /**
     * Ticks since the last sample of this process or thread. One not read then counts all of its ticks only if it
     * started since (by its start time); one that was there but could not be read counts from now on.
     */
    private long since(String key, long total, long startTicks, Map<String, Long> nowTicks) {
        nowTicks.put(key, total);
        Long last = lastTicks.get(key);
        if (last == null) {
            return lastMachine != null && startTicks >= lastUptimeTicks ? total : 0;
        }
        return Math.max(0, total - last);
    }

    /** Ticks since the machine booted (/proc/uptime), the clock of a process's start time. */
    private static long uptimeTicks() throws IOException {
        String seconds = Files.readString(Path.of("/proc/uptime"), StandardCharsets.ISO_8859_1).split(" ")[0];
        return (long) (Double.parseDouble(seconds) * TICKS_PER_SECOND);
    }

    /** When a process or thread started, in ticks since boot: the 22nd field. */
    private static long startTicks(String[] stat) {
        return Long.parseLong(stat[19]);
    }

    /** The machine's busy, steal and idle ticks so far, from the first line of /proc/stat (idle with iowait). */
    private static long[] machineTicks() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.ISO_8859_1).get(0).trim().split("\\s+");
        long user = Long.parseLong(f[1]) + Long.parseLong(f[2]);
        long system = Long.parseLong(f[3]) + Long.parseLong(f[6]) + Long.parseLong(f[7]);
        return new long[] {user + system, Long.parseLong(f[8]), Long.parseLong(f[4]) + Long.parseLong(f[5])};
    }

    /** The CPUs /proc/stat counts (its cpuN lines): what the machine's ticks are shared by. */
    static int countCpus() throws IOException {
        return (int) Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.ISO_8859_1).stream()
                .filter(line -> line.matches("cpu\\d+ .*")).count();
    }

    /** A /proc/.../stat line's fields after the command's closing parenthesis (the 3rd field on); null if gone. */
    private static String[] stat(Path file) {
        String line = read(file);
        int end = line.lastIndexOf(')');
        return end < 0 ? null : line.substring(end + 2).split(" ");
    }

    /** utime + stime: the 14th and 15th fields. */
    private static long ticksOf(String[] stat) {
        return Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
    }

    private static String commOf(Path task) {
        return read(task.resolve("comm")).strip();
    }

    /** A backing service by the process's command line; null for anything else ("other"). */
    private static Group groupOf(Path process) {
        String command = read(process.resolve("cmdline")).replace('\0', ' ');
        if (command.contains("org.apache.cassandra.service.CassandraDaemon")) {
            return Group.CASSANDRA;
        }
        if (command.contains("org.elasticsearch.")) {
            return Group.ELASTICSEARCH;
        }
        if (command.startsWith("postgres") || command.contains("/postgresql/")) {
            return Group.POSTGRESQL;
        }
        if (command.contains("beam.smp") || command.contains("erl_child_setup") || command.contains("inet_gethost")
                || command.contains("epmd")) {
            return Group.RABBITMQ;
        }
        return null;
    }

    /**
     * A thread of the benchmark's JVM by its name as /proc shows it (15 characters at most). The load generator
     * names its threads {@code bench-}; everything else that is not the collector or the JIT is the service's
     * (in a baseline's scenario, the baseline's own client: the driver's and the Elasticsearch client's threads).
     */
    static Group groupOfThread(String comm) {
        if (comm.startsWith("bench-")) {
            return Group.LOAD;
        }
        if (COLLECTOR_THREADS.stream().anyMatch(comm::startsWith)) {
            return Group.GC;
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return Group.JIT;
        }
        return Group.SERVICE;
    }

    /** /proc's files as bytes (a name cut at 15 bytes may end mid-character); empty if the process is gone. */
    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
