package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class ServerTimeTest {

    static String exposition(double getSum, long getCount) {
        return "# TYPE http_server_requests_seconds histogram\n"
                + "http_server_requests_seconds_bucket{method=\"GET\",route=\"/v1/profiles/{pid}\",status=\"200\",le=\"0.005\"} 7\n"
                + "http_server_requests_seconds_count{method=\"GET\",route=\"/v1/profiles/{pid}\",status=\"200\"} " + getCount + "\n"
                + "http_server_requests_seconds_sum{method=\"GET\",route=\"/v1/profiles/{pid}\",status=\"200\"} " + getSum + "\n"
                + "http_server_requests_seconds_count{method=\"GET\",route=\"/v1/profiles/{pid}\",status=\"404\"} 3\n"
                + "http_server_requests_seconds_sum{method=\"GET\",route=\"/v1/profiles/{pid}\",status=\"404\"} 9.0\n"
                + "http_server_requests_seconds_count{method=\"PUT\",route=\"/v1/profiles/{pid}\",status=\"200\"} 50\n"
                + "http_server_requests_seconds_sum{method=\"PUT\",route=\"/v1/profiles/{pid}\",status=\"200\"} 5.0\n";
    }

    @Test
    void theMeanOfTheRequestsBetweenTwoReadingsOfOneRouteMethodAndStatus() {
        var before = ServerTime.of(exposition(0.5, 1_000), "/v1/profiles/{pid}", "GET", 200);
        var after = ServerTime.of(exposition(2.0, 4_000), "/v1/profiles/{pid}", "GET", 200);

        assertThat(before.requests()).isEqualTo(1_000);
        assertThat(after.requestsSince(before)).isEqualTo(3_000);
        assertThat(after.meanMillisSince(before)).as("1.5 s over 3,000 requests").isCloseTo(0.5, Offset.offset(1e-9));
    }

    @Test
    void aRouteNeverAskedForHasNoRequestsAndNoMean() {
        var none = ServerTime.of(exposition(0.5, 1_000), "/v1/search", "GET", 200);

        assertThat(none.requests()).isZero();
        assertThat(none.meanMillisSince(none)).isNaN();
    }
}
