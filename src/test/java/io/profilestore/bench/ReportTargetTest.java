package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each target of the report is read from its own scenario, never from one whose name merely begins the same. */
class ReportTargetTest {

    static Report.Target target(String scenario) {
        return Report.TARGETS.stream().filter(t -> t.scenario().equals(scenario)).findFirst().orElseThrow();
    }

    @Test
    void theGetTargetIsTheGetsNotTheMatchesRoute() {
        var get = target("GET /v1/profiles/{pid}");

        assertThat(get.covers("GET /v1/profiles/{pid}")).isTrue();
        assertThat(get.covers("GET /v1/profiles/{pid}/matches")).isFalse();
        assertThat(target("GET /v1/profiles/{pid}/matches").covers("GET /v1/profiles/{pid}/matches")).isTrue();
    }

    @Test
    void aTargetCoversItsScenarioWhateverTheScenarioSaysAfterAComma() {
        assertThat(target("bulk import").covers("bulk import, POST /v1/profiles:batchCreate (100 a request, 6 clients)"))
                .isTrue();
        assertThat(target("import command").covers("import command, given ids, killed halfway and resumed"))
                .isTrue();
        assertThat(target("PUT /v1/profiles/{pid} with If-Match").covers("PUT /v1/profiles/{pid} with If-Match"))
                .isTrue();
        assertThat(target("bulk import").covers("bulk importer of another kind")).isFalse();
    }
}
