package io.profilestore.limits;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonMerge;
import io.profilestore.auth.Role;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Token buckets per caller on reads, searches and writes (see {@link CallerBuckets}), per role. A file of one's own may
 * name only what it changes: the roles' map and their limits are merged over the defaults, never replaced.
 */
public class RateLimitSettings {

    /**
     * A person's changes: an editor saves a profile after reading and changing it, a minute's work, and an admin merges
     * one pair at a time after comparing them; a burst for a few quick fixes in a row. Declared first: every
     * RoleLimits made below starts from it.
     */
    static final Limit PEOPLES_WRITES = new Limit(0.5, 20);

    /**
     * The processing platform: far above what it asks (the benchmark drives 500 reads and 50 searches a second with
     * one key, and about 650 searches a second closed loop), so that only a runaway loop meets the limit.
     */
    static final RoleLimits PLATFORM = new RoleLimits(new Limit(5_000, 10_000), new Limit(5_000, 10_000),
            new Limit(5_000, 10_000));

    /**
     * People at a desk: a profile every half second on average, and a search a second (the console searches as one
     * types, each pause of 250 ms, so a name typed quickly is a few searches), with bursts of tens for paging back and
     * forth. Paging through everyone stays slow: a page a second (20 hits at the default size, 100 at the largest),
     * each search audited.
     */
    static final RoleLimits PEOPLE = new RoleLimits(new Limit(2, 60), new Limit(1, 30), PEOPLES_WRITES.copy());

    /** By role name ({@code platform}, {@code operator}, ...): merged over the defaults. */
    @Valid
    @NotNull
    @JsonMerge
    public Map<String, RoleLimits> roles = defaults();

    /** The limits of a role that {@link #roles} does not name. */
    @Valid
    @NotNull
    @JsonMerge
    public RoleLimits otherRoles = PEOPLE.copy();

    /**
     * Callers whose buckets are kept at most (the least recently seen go first): a bound on memory however many
     * JWT subjects call.
     */
    @Min(100)
    @Max(10_000_000)
    public int maxCallers = 100_000;

    /**
     * Machines' JWT subjects that get a label of their own in the metrics (the first seen since start); further ones
     * are counted as {@code other}. Machines' API keys always have their own: their names are configured, so bounded.
     * People are counted together as {@code person}.
     */
    @Min(0)
    @Max(1_000)
    public int labelledSubjects = 100;

    static Map<String, RoleLimits> defaults() {
        var roles = new LinkedHashMap<String, RoleLimits>();
        roles.put(Role.PLATFORM_NAME, PLATFORM.copy());
        roles.put(Role.OPERATOR_NAME, PEOPLE.copy());
        roles.put(Role.ADMIN_NAME, PEOPLE.copy());
        return roles;
    }

    /** A check, not a setting: written out with the defaults, it would be a field that reading refuses. */
    @JsonIgnore
    @AssertTrue(message = "names roles the service does not have (platform, operator, editor, admin)")
    public boolean isRolesKnown() {
        try {
            roles.keySet().forEach(Role::of);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The limits of one role: its reads (every GET of /v1 but search), its searches and its writes. */
    public static class RoleLimits {

        @Valid
        @NotNull
        @JsonMerge
        public Limit reads;

        @Valid
        @NotNull
        @JsonMerge
        public Limit searches;

        /** A file written before writes were limited names reads and searches only: its roles get people's writes. */
        @Valid
        @NotNull
        @JsonMerge
        public Limit writes = PEOPLES_WRITES.copy();

        public RoleLimits() {
        }

        RoleLimits(Limit reads, Limit searches, Limit writes) {
            this.reads = reads;
            this.searches = searches;
            this.writes = writes;
        }

        RoleLimits copy() {
            return new RoleLimits(reads.copy(), searches.copy(), writes.copy());
        }

        Limit of(RequestKind kind) {
            return switch (kind) {
                case READ -> reads;
                case SEARCH -> searches;
                case WRITE -> writes;
            };
        }
    }

    /** A token bucket: refilled at {@code ratePerSecond}, holding {@code burst} tokens at most. */
    public static class Limit {

        @DecimalMin(value = "0.001")
        @Max(1_000_000)
        public double ratePerSecond;

        @Min(1)
        @Max(10_000_000)
        public long burst;

        public Limit() {
        }

        Limit(double ratePerSecond, long burst) {
            this.ratePerSecond = ratePerSecond;
            this.burst = burst;
        }

        Limit copy() {
            return new Limit(ratePerSecond, burst);
        }
    }
}
