package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two API instances whose clocks are a minute apart (libfaketime): writes alternating between them, and a storm
 * across both, lose nothing. Were write timestamps taken from the instances' clocks, every write of the slow one
 * after one of the fast one would lose last-write-wins and vanish.
 */
class ClockSkewIT {

    static ServiceProcess ahead;
    static ServiceProcess behind;

    @BeforeAll
    static void twoInstances() throws Exception {
        TestStack.stack();
        ahead = ServiceProcess.start("+30s", Map.of());
        behind = ServiceProcess.start("-30s", Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (ahead != null) {
            ahead.close();
        }
        if (behind != null) {
            behind.close();
        }
    }

    @Test
    void theInstancesReallyDisagreeAboutTheTime() {
        var aheadNow = ahead.api().send("GET", "/v1/nothing", null, null, Map.of()).headers().firstValue("Date").orElseThrow();
        var behindNow = behind.api().send("GET", "/v1/nothing", null, null, Map.of()).headers().firstValue("Date").orElseThrow();
        var format = DateTimeFormatter.RFC_1123_DATE_TIME;
        var gap = Duration.between(ZonedDateTime.parse(behindNow, format), ZonedDateTime.parse(aheadNow, format));
        assertThat(gap).isGreaterThan(Duration.ofSeconds(50));
    }

    @Test
    void writesAlternatingBetweenSkewedInstancesAllStand() {
        var pid = ahead.api().create("{\"step\": 0}").pid();
        for (int step = 1; step <= 20; step++) {
            var writer = step % 2 == 0 ? ahead : behind;
            var reader = step % 2 == 0 ? behind : ahead;

            var written = writer.api().put(pid, etag(step), "{\"step\": " + step + "}");

            assertThat(written.status()).as(written.body()).isEqualTo(200);
            var read = reader.api().get(pid);
            assertThat(read.version()).isEqualTo(step + 1);
            assertThat(read.json().path("data").path("step").asInt()).isEqualTo(step);
            // stamped with PostgreSQL's time, not the instance's
            assertThat(Duration.between(Instant.parse(read.json().path("updatedAt").asText()), Instant.now()).abs())
                    .isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void aStormAcrossSkewedInstancesLosesNoUpdate() throws Exception {
        var pid = ahead.api().create("{\"counter\": 0}").pid();

        var storm = ConcurrentChangesIT.Storm.run(List.of(ahead.api(), behind.api()), pid, 32, 96, Duration.ofMinutes(3));

        var last = behind.api().get(pid);
        assertThat(storm.accepted()).as("writes accepted across both instances").isGreaterThanOrEqualTo(96);
        assertThat(last.json().path("data").path("counter").asLong()).isEqualTo(storm.accepted());
        assertThat(storm.versions()).containsExactlyElementsOf(LongStream.rangeClosed(2, storm.accepted() + 1).boxed().toList());
        assertThat(Stores.outboxVersions(pid)).hasSize((int) storm.accepted() + 1);
    }
}
