package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which Request-Id a request gets: its own when it is a UUID (but the nil one), else a new one. */
class RequestIdsTest {

    @Test
    void aUuidIsTakenInItsCanonicalForm() {
        var id = UUID.randomUUID();
        assertThat(RequestIds.given(id.toString())).isEqualTo(id);
        assertThat(RequestIds.given(id.toString().toUpperCase())).isEqualTo(id);
    }

    @Test
    void anythingElseIsReplacedByANewOne() {
        for (var given : new String[] {null, "", "ivanov-1", "|abc.1.", "1-2-3-4-5", "00000000-0000-0000-0000-000000000000",
                UUID.randomUUID() + " "}) {
            var id = RequestIds.given(given);
            assertThat(id).as(String.valueOf(given)).isNotNull().isNotEqualTo(new UUID(0, 0));
            assertThat(id.toString()).isNotEqualTo(given);
        }
        assertThat(RequestIds.given("x")).as("a new one each time").isNotEqualTo(RequestIds.given("x"));
    }
}
