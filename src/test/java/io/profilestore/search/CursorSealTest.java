package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A sealed cursor shows nothing of what it holds, its length included. */
class CursorSealTest {

    final CursorSeal seal = new CursorSeal(CursorSeal.randomKey(), Duration.ofMinutes(2), Clock.systemUTC());

    @Test
    void cursorsOfShortAndLongNamesAreAsLongAsEachOther() {
        // the cursor carries the last hit's name among its sort values: AES-GCM alone keeps its length
        String shortName = "{\"after\":[2.0,\"ли ан\",\"0f0e\"]}";
        String longName = "{\"after\":[2.0,\"константинопольская александра вячеславовна\",\"0f0e\"]}";

        String a = seal.seal(shortName, "search");
        String b = seal.seal(longName, "search");

        assertThat(a).hasSameSizeAs(b);
        assertThat(seal.open(a, "search")).isEqualTo(shortName);
        assertThat(seal.open(b, "search")).isEqualTo(longName);
        assertThatThrownBy(() -> seal.open(a, "another search")).isInstanceOf(InvalidSearchException.class);
    }
}
