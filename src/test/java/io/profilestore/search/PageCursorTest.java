package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import co.elastic.clients.elasticsearch._types.FieldValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cursor inside the sealed one: the sort values of a page's last hit, as text and back. */
class PageCursorTest {

    @Test
    void theSortValuesOfTheLastHitComeBackAsTheyWere() {
        var after = List.of(FieldValue.of(1.25), FieldValue.of(42L), FieldValue.of("сиемиенов"), FieldValue.NULL);

        var decoded = PageCursor.decode(new PageCursor(after).encode()).after();

        assertThat(decoded).extracting(FieldValue::_kind)
                .containsExactly(FieldValue.Kind.Double, FieldValue.Kind.Long, FieldValue.Kind.String, FieldValue.Kind.Null);
        assertThat(decoded.get(0).doubleValue()).isEqualTo(1.25);
        assertThat(decoded.get(1).longValue()).isEqualTo(42L);
        assertThat(decoded.get(2).stringValue()).isEqualTo("сиемиенов");
    }

    @Test
    void aCursorThisServiceDidNotGiveOutIsAnInvalidQuery() {
        String notBase64 = "not a cursor!";
        String noSortValues = Base64.getUrlEncoder().encodeToString("{\"after\":[]}".getBytes(StandardCharsets.UTF_8));
        String notJson = Base64.getUrlEncoder().encodeToString("after".getBytes(StandardCharsets.UTF_8));

        for (String text : List.of(notBase64, noSortValues, notJson)) {
            assertThatThrownBy(() -> PageCursor.decode(text)).as(text).isInstanceOf(InvalidSearchException.class)
                    .hasMessageContaining("cursor");
        }
    }
}
