package io.profilestore.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.profilestore.limits.RateLimitSettings.Limit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One token bucket (Bucket4j) per credential and kind of request. A credential is its kind and its name (an API
 * key's name, a JWT's subject), never its token; its limit is the most generous of its roles' (a person's: of its
 * people's roles). Buckets live in a bounded cache: one idle for as long as the slowest bucket takes to fill again
 * is full, and dropping it changes nothing, so that is how long an idle one is kept; beyond {@code maxCallers} the least recently seen go first.
 */
public final class CallerBuckets {

    /** The answer for one request: allowed, or refused with how long until a token is there. */
    public record Decision(boolean allowed, long retryAfterSeconds) {
    }

    private record Key(Caller.Kind credential, String name, RequestKind kind, double ratePerSecond, long burst) {
    }

    /** An idle bucket is kept at least this long: a few callers' buckets are no memory to speak of. */
    static final Duration MIN_IDLE = Duration.ofMinutes(1);

    private final RateLimitSettings settings;
    private final TimeMeter time;
    private final Cache<Key, Bucket> buckets;

    public CallerBuckets(RateLimitSettings settings) {
        this(settings, System::nanoTime);
    }

    /** @param nanos a monotonic clock in nanoseconds, for the buckets and for their eviction alike */
    CallerBuckets(RateLimitSettings settings, LongSupplier nanos) {
        this.settings = settings;
        this.time = new TimeMeter() {
            @Override
            public long currentTimeNanos() {
                return nanos.getAsLong();
            }

            @Override
            public boolean isWallClockBased() {
                return false;
            }
        };
        this.buckets = Caffeine.newBuilder()
                .maximumSize(settings.maxCallers)
                .expireAfterAccess(idleUntilFull(settings))
                .ticker(nanos::getAsLong)
                // evictions are a few map operations: done on the caller's thread, none left to a pool
                .executor(Runnable::run)
                .build();
    }

    /** Takes one token of the caller's bucket for this kind of request. */
    public Decision take(Caller caller, RequestKind kind) {
        var limit = limitOf(caller, kind);
        var key = new Key(caller.kind(), caller.name(), kind, limit.ratePerSecond, limit.burst);
        var probe = buckets.get(key, k -> bucket(limit)).tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return new Decision(true, 0);
        }
        long seconds = (probe.getNanosToWaitForRefill() + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
        return new Decision(false, Math.max(1, seconds));
    }

    /**
     * The most generous of the caller's roles' limits: the highest rate, then the largest burst. A person's credential
     * (any not made for a machine) that holds platform counts only its people's roles, or the other roles' limits when
     * it holds none: the platform's limits are a machine's, and a person at a machine's pace could page through
     * everyone. The one caller of a service with authentication off (loopback
     * only, a developer's machine) is paced as the platform, although audited as a person.
     */
    Limit limitOf(Caller caller, RequestKind kind) {
        boolean machine = caller.isMachine() || caller.kind() == Caller.Kind.ANONYMOUS;
        return caller.roles().stream()
                .filter(role -> machine || role != Role.PLATFORM)
                .map(role -> settings.roles.getOrDefault(role.roleName(), settings.otherRoles).of(kind))
                .max(Comparator.<Limit>comparingDouble(l -> l.ratePerSecond).thenComparingLong(l -> l.burst))
                .orElse(settings.otherRoles.of(kind));
    }

    /** Buckets kept now (after evicting what is due): for the tests of the bound. */
    long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }

    private Bucket bucket(Limit limit) {
        // a greedy refill of the whole burst over the time it takes at the rate: tokens come back one by one, at the
        // rate, and a fractional rate (one every two seconds) needs no rounding
        var refill = Duration.ofNanos(Math.max(1, Math.round(limit.burst * 1e9 / limit.ratePerSecond)));
        return Bucket.builder()
                .addLimit(bandwidth -> bandwidth.capacity(limit.burst).refillGreedy(limit.burst, refill))
                .withCustomTimePrecision(time)
                .build();
    }

    /** The longest any configured bucket takes to fill again from empty, {@link #MIN_IDLE} at least. */
    static Duration idleUntilFull(RateLimitSettings settings) {
        var longest = MIN_IDLE;
        var all = new ArrayList<>(settings.roles.values());
        all.add(settings.otherRoles);
        for (var role : all) {
            for (var kind : RequestKind.values()) {
                var limit = role.of(kind);
                var full = Duration.ofNanos(Math.round(limit.burst * 1e9 / limit.ratePerSecond));
                longest = full.compareTo(longest) > 0 ? full : longest;
            }
        }
        return longest;
    }
}
