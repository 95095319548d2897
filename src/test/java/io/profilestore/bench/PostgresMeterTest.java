package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.bench.PostgresMeter.Reading;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresMeterTest {

    static final long SECOND = 1_000_000_000L;

    /** Readings once a second: 100 transactions, 300 WAL records, 10 KiB and 90 flushes a second besides the meter's. */
    static final List<Reading> READINGS = List.of(
            new Reading(0, 1_000, 5_000, 100_000, 500),
            new Reading(SECOND, 1_101, 5_300, 110_240, 590),
            new Reading(2 * SECOND, 1_202, 5_600, 120_480, 680),
            new Reading(3 * SECOND, 1_303, 5_900, 130_720, 770),
            new Reading(4 * SECOND, 1_404, 6_200, 140_960, 860));

    @Test
    void aWindowCountsBetweenTheReadingsNearestItsEndsLessTheMetersOwnReads() {
        var delta = PostgresMeter.delta(READINGS, SECOND + SECOND / 10, 3 * SECOND - SECOND / 10);

        assertThat(delta.seconds()).isEqualTo(2.0);
        assertThat(delta.transactions()).as("200 of the window's, not the meter's 2").isEqualTo(200);
        assertThat(delta.walRecords()).isEqualTo(600);
        assertThat(delta.walBytes()).isEqualTo(20_480);
        assertThat(delta.walFlushes()).isEqualTo(180);
    }

    @Test
    void aWindowNoTwoReadingsSpanHasNoCounts() {
        assertThat(PostgresMeter.delta(READINGS, 10 * SECOND, 12 * SECOND)).isNull();
        assertThat(PostgresMeter.delta(List.of(), 0, SECOND)).isNull();
    }
}
