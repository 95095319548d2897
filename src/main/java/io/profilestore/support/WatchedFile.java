package io.profilestore.support;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file the service reads again when its content changes, without a restart: a mounted Secret (API keys, a JWT key
 * set, the API's key store), which Kubernetes replaces by swapping a symbolic link, so its content is compared, not its
 * time. What cannot be read, or is refused, leaves what was read before in place: a broken file never locks everyone
 * out. Each change is logged once (the file's path and the reason, never its content) and counted
 * ({@code files.<what>.reloaded} and {@code .refused}).
 */
public final class WatchedFile {

    /** Takes the file's new content in; throws to refuse it. */
    @FunctionalInterface
    public interface Apply {
        void apply(byte[] content) throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(WatchedFile.class);

    private final Path path;
    private final String what;
    private final Apply apply;
    private final Counter reloaded;
    private final Counter refused;
    private byte[] digest;
    private boolean unreadableSaid;

    /**
     * Takes note of the file's content as it is now: make the watch before the first read of the file, so that a
     * change between the two is read again, never missed.
     */
    public WatchedFile(Path path, String what, Apply apply, MetricRegistry metrics) {
        this.path = path;
        this.what = what;
        this.apply = apply;
        this.reloaded = metrics.counter("files." + what + ".reloaded");
        this.refused = metrics.counter("files." + what + ".refused");
        this.digest = digestOrNull();
    }

    /**
     * Checks each file on the scheduler, one after the other, every so often. Whatever a check throws is logged and the
     * next check still runs: a scheduled task that throws is never run again, and revocation would stop unseen.
     */
    public static void schedule(ScheduledExecutorService scheduler, Duration every, List<WatchedFile> watches) {
        if (watches.isEmpty()) {
            return;
        }
        long millis = every.toMillis();
        scheduler.scheduleWithFixedDelay(() -> {
            for (var watch : watches) {
                try {
                    watch.check();
                } catch (Throwable unforeseen) {
                    LOG.error("checking the {} file {} failed; it is checked again", watch.what, watch.path, unforeseen);
                }
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * A watch whose first check applies the file whatever it holds: for a file read by someone else at a moment this
     * code does not see (Jetty's key store), so that a change just before cannot be missed.
     */
    public static WatchedFile appliedAtFirstCheck(Path path, String what, Apply apply, MetricRegistry metrics) {
        var watch = new WatchedFile(path, what, apply, metrics);
        watch.digest = null;
        return watch;
    }

    /** Reads the file and applies it if its content changed since the last look; returns whether it was applied. */
    public synchronized boolean check() {
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException e) {
            if (!unreadableSaid) {
                LOG.warn("the {} file {} cannot be read ({}); what was read before stays", what, path,
                        e.getClass().getSimpleName());
                unreadableSaid = true;
            }
            return false;
        }
        unreadableSaid = false;
        byte[] now = sha256(content);
        if (Arrays.equals(now, digest)) {
            return false;
        }
        digest = now;
        try {
            apply.apply(content);
        } catch (Exception e) {
            refused.inc();
            LOG.error("the {} file {} changed, and is refused ({}); what was read before stays", what, path, reason(e));
            return false;
        }
        reloaded.inc();
        LOG.info("the {} file {} changed, and was read again", what, path);
        return true;
    }

    /** Why, without the file's content: a parser's message may quote it. */
    private static String reason(Exception e) {
        if (e instanceof JsonProcessingException json && json.getLocation() != null) {
            return json.getClass().getSimpleName() + " at line " + json.getLocation().getLineNr();
        }
        return e instanceof IllegalArgumentException ? e.getMessage() : e.getClass().getSimpleName();
    }

    private byte[] digestOrNull() {
        try {
            return sha256(Files.readAllBytes(path));
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
