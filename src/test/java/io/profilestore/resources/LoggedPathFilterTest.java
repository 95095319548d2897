package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The request log's path keeps the route and its ids, and nothing else a client put into a URL. */
class LoggedPathFilterTest {

    @Test
    void routesAndIdsStayAndEverythingElseIsMasked() {
        String pid = "0b7f6c1e-3a5d-4c1e-9f0a-2b3c4d5e6f70";
        assertThat(LoggedPathFilter.loggable("/v1/profiles/" + pid + "/user")).isEqualTo("/v1/profiles/" + pid + "/user");
        assertThat(LoggedPathFilter.loggable("/v1/users/" + pid + "/merge")).isEqualTo("/v1/users/" + pid + "/merge");
        assertThat(LoggedPathFilter.loggable("/v1/profiles/" + pid + "/matches")).isEqualTo("/v1/profiles/" + pid + "/matches");
        assertThat(LoggedPathFilter.loggable("/v1/profiles:batchCreate")).isEqualTo("/v1/profiles:batchCreate");
        assertThat(LoggedPathFilter.loggable("/console/console.js")).isEqualTo("/console/console.js");
        assertThat(LoggedPathFilter.loggable("/tasks/log-level")).isEqualTo("/tasks/log-level");
        // the fuzzer's finding: a name sent where a pid belongs was logged as it came
        assertThat(LoggedPathFilter.loggable("/v1/profiles/ivanov*")).isEqualTo("/v1/profiles/*");
        assertThat(LoggedPathFilter.loggable("/v1/users/ivanov/merge")).isEqualTo("/v1/users/*/merge");
        assertThat(LoggedPathFilter.loggable("/v1/profiles/%D0%98%D0%B2%D0%B0%D0%BD%D0%BE%D0%B2")).isEqualTo("/v1/profiles/*");
        assertThat(LoggedPathFilter.loggable("/v1/profiles/" + pid + ";access_token=psk_x")).isEqualTo("/v1/profiles/" + pid);
        assertThat(LoggedPathFilter.loggable("/ivanov")).isEqualTo("/*");
    }
}
