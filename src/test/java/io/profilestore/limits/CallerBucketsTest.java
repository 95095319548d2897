package io.profilestore.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The buckets on a clock of the test's own: no sleep, every refill and eviction at a time the test sets. */
class CallerBucketsTest {

    final AtomicLong now = new AtomicLong(1_000_000_000L);
    final Caller anna = new Caller("anna", Caller.Kind.JWT, Set.of(Role.OPERATOR));

    static RateLimitSettings settings() {
        var settings = new RateLimitSettings();
        settings.roles.get("operator").reads = new RateLimitSettings.Limit(0.5, 3);
        settings.roles.get("operator").searches = new RateLimitSettings.Limit(1, 1);
        return settings;
    }

    void advance(Duration by) {
        now.addAndGet(by.toNanos());
    }

    @Test
    void aBurstThenOneTokenPerPeriodWithRetryAfterFromTheBucket() {
        var buckets = new CallerBuckets(settings(), now::get);
        for (int i = 0; i < 3; i++) {
            assertThat(buckets.take(anna, RequestKind.READ).allowed()).as("read %d of the burst", i + 1).isTrue();
        }
        var refused = buckets.take(anna, RequestKind.READ);
        assertThat(refused.allowed()).isFalse();
        // half a token a second: the next one in 2 s
        assertThat(refused.retryAfterSeconds()).isEqualTo(2);
        advance(Duration.ofMillis(1500));
        assertThat(buckets.take(anna, RequestKind.READ)).isEqualTo(new CallerBuckets.Decision(false, 1));
        advance(Duration.ofMillis(500));
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isTrue();
        assertThat(buckets.take(anna, RequestKind.READ).retryAfterSeconds()).isEqualTo(2);
    }

    @Test
    void retryAfterIsWholeSecondsAtLeastOne() {
        var settings = settings();
        settings.roles.get("operator").reads = new RateLimitSettings.Limit(1000, 1);
        var buckets = new CallerBuckets(settings, now::get);
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isTrue();
        // the next token is a millisecond away: Retry-After says 1, never 0
        assertThat(buckets.take(anna, RequestKind.READ)).isEqualTo(new CallerBuckets.Decision(false, 1));
    }

    @Test
    void eachCredentialAndKindHasItsOwnBucket() {
        var buckets = new CallerBuckets(settings(), now::get);
        assertThat(buckets.take(anna, RequestKind.SEARCH).allowed()).isTrue();
        assertThat(buckets.take(anna, RequestKind.SEARCH).allowed()).isFalse();
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).as("reads apart from searches").isTrue();
        var boris = new Caller("boris", Caller.Kind.JWT, Set.of(Role.OPERATOR));
        assertThat(buckets.take(boris, RequestKind.SEARCH).allowed()).as("another subject").isTrue();
        var keyNamedAnna = new Caller("anna", Caller.Kind.API_KEY, Set.of(Role.OPERATOR));
        assertThat(buckets.take(keyNamedAnna, RequestKind.SEARCH).allowed()).as("an API key of the same name").isTrue();
    }

    @Test
    void aCallerOfSeveralRolesGetsTheMostGenerous() {
        var buckets = new CallerBuckets(settings(), now::get);
        assertThat(buckets.limitOf(anna, RequestKind.READ).ratePerSecond).isEqualTo(0.5);
        // on equal rates, the larger burst
        var settings = settings();
        settings.roles.get("admin").reads = new RateLimitSettings.Limit(0.5, 7);
        var admin = new Caller("ada", Caller.Kind.JWT, Set.of(Role.OPERATOR, Role.ADMIN));
        assertThat(new CallerBuckets(settings, now::get).limitOf(admin, RequestKind.READ).burst).isEqualTo(7);
    }

    /** A person whose credential holds platform too is a person (audited, let in the console) at a person's pace. */
    @Test
    void aPersonHoldingPlatformTooGetsAPersonsLimits() {
        var buckets = new CallerBuckets(settings(), now::get);
        var both = new Caller("both", Caller.Kind.API_KEY, Set.of(Role.OPERATOR, Role.PLATFORM));
        assertThat(buckets.limitOf(both, RequestKind.READ).ratePerSecond).isEqualTo(0.5);
        assertThat(buckets.take(both, RequestKind.SEARCH).allowed()).isTrue();
        assertThat(buckets.take(both, RequestKind.SEARCH).allowed()).as("the operator's burst of searches is 1").isFalse();
        var machine = Caller.machine("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM));
        assertThat(buckets.limitOf(machine, RequestKind.READ).ratePerSecond).isEqualTo(5_000);
    }

    @Test
    void aPersonHoldingOnlyPlatformGetsTheLimitsOfOtherRoles() {
        var buckets = new CallerBuckets(settings(), now::get);
        var person = new Caller("person.with.platform", Caller.Kind.JWT, Set.of(Role.PLATFORM));

        assertThat(buckets.limitOf(person, RequestKind.READ)).usingRecursiveComparison()
                .isEqualTo(settings().otherRoles.of(RequestKind.READ));
        assertThat(buckets.limitOf(person, RequestKind.READ).ratePerSecond).isLessThan(5_000);
    }

    /**
     * With authentication off (loopback only: a developer's machine) the one caller holds every role; it is audited
     * as a person, but paced as the platform, so that a script against ./run-local is not refused after a second.
     */
    @Test
    void theCallerOfAServiceWithoutAuthenticationGetsThePlatformsLimits() {
        var buckets = new CallerBuckets(new RateLimitSettings(), now::get);
        var platform = Caller.machine("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM));
        for (var kind : RequestKind.values()) {
            assertThat(buckets.limitOf(Caller.ANONYMOUS, kind)).usingRecursiveComparison()
                    .isEqualTo(buckets.limitOf(platform, kind));
        }
        for (int i = 0; i < 200; i++) {
            assertThat(buckets.take(Caller.ANONYMOUS, RequestKind.SEARCH).allowed()).as("search %d", i + 1).isTrue();
        }
    }

    @Test
    void aRoleWithoutLimitsOfItsOwnGetsTheOtherRoles() {
        var settings = settings();
        settings.roles.remove("admin");
        settings.otherRoles.reads = new RateLimitSettings.Limit(3, 9);
        var admin = new Caller("ada", Caller.Kind.JWT, Set.of(Role.ADMIN));
        assertThat(new CallerBuckets(settings, now::get).limitOf(admin, RequestKind.READ).burst).isEqualTo(9);
    }

    @Test
    void idleBucketsAreDroppedOnceTheyWouldBeFullAgain() {
        var settings = settings();
        settings.roles.get("operator").reads = new RateLimitSettings.Limit(0.01, 2);
        var buckets = new CallerBuckets(settings, now::get);
        assertThat(CallerBuckets.idleUntilFull(settings)).isEqualTo(Duration.ofSeconds(200));
        for (int i = 0; i < 50; i++) {
            buckets.take(new Caller("subject-" + i, Caller.Kind.JWT, Set.of(Role.OPERATOR)), RequestKind.READ);
        }
        buckets.take(anna, RequestKind.READ);
        buckets.take(anna, RequestKind.READ);
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isFalse();
        assertThat(buckets.size()).isEqualTo(51);
        advance(Duration.ofSeconds(199));
        assertThat(buckets.size()).as("not yet idle long enough").isEqualTo(51);
        advance(Duration.ofSeconds(2));
        assertThat(buckets.size()).as("every idle bucket dropped").isZero();
        // which lost nothing: anna's bucket would have been full again by now
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isTrue();
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isTrue();
        assertThat(buckets.take(anna, RequestKind.READ).allowed()).isFalse();
    }

    @Test
    void theNumberOfCallersIsBounded() {
        var settings = settings();
        settings.maxCallers = 100;
        var buckets = new CallerBuckets(settings, now::get);
        for (int i = 0; i < 1_000; i++) {
            buckets.take(new Caller("subject-" + i, Caller.Kind.JWT, Set.of(Role.OPERATOR)), RequestKind.READ);
        }
        assertThat(buckets.size()).isLessThanOrEqualTo(100).isPositive();
    }

    @Test
    void theDefaultsLeaveThePlatformFarAboveTheBenchmarkAndPeopleAtAPersonsPace() {
        var defaults = new RateLimitSettings();
        var platform = Caller.machine("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM));
        var buckets = new CallerBuckets(defaults, now::get);
        // the benchmark: 500 reads a second, 50 searches a second, about 650 searches a second closed loop
        assertThat(buckets.limitOf(platform, RequestKind.READ).ratePerSecond).isGreaterThanOrEqualTo(10 * 500);
        assertThat(buckets.limitOf(platform, RequestKind.SEARCH).ratePerSecond).isGreaterThanOrEqualTo(5 * 650);
        for (var role : Set.of(Role.OPERATOR, Role.ADMIN)) {
            var person = new Caller("p", Caller.Kind.JWT, Set.of(role));
            assertThat(buckets.limitOf(person, RequestKind.READ).ratePerSecond).isBetween(1.0, 5.0);
            assertThat(buckets.limitOf(person, RequestKind.SEARCH).burst).isBetween(10L, 100L);
        }
        // a second of the benchmark's reads, at once, all allowed
        for (int i = 0; i < 500; i++) {
            assertThat(buckets.take(platform, RequestKind.READ).allowed()).isTrue();
        }
    }
}
