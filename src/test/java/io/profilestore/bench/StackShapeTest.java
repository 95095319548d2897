package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run refuses a stack of another shape than it asks for, and its report says what it ran on. */
class StackShapeTest {

    private static final StackShape DURABLE = new StackShape(
            Map.of("fsync", "on", "synchronous_commit", "on", "full_page_writes", "on"));
    private static final StackShape FAST = new StackShape(
            Map.of("fsync", "off", "synchronous_commit", "on", "full_page_writes", "off"));

    @Test
    void postgresIsDurableOnlyWhenEverySettingIsOn() {
        assertThat(DURABLE.postgresDurable()).isTrue();
        assertThat(FAST.postgresDurable()).isFalse();
        assertThat(new StackShape(Map.of("fsync", "on", "synchronous_commit", "off", "full_page_writes", "on"))
                .postgresDurable()).as("commits that do not wait").isFalse();
    }

    @Test
    void aRunThatAsksForAnotherPostgresStopsAndSaysWhy() {
        var durableRun = Bench.Options.parse(new String[] {"--quick"});
        var fastRun = Bench.Options.parse(new String[] {"--quick", "--postgres-fast"});

        DURABLE.check(durableRun);
        FAST.check(fastRun);
        assertThatThrownBy(() -> FAST.check(durableRun)).hasMessageContaining("asks for PostgreSQL durable")
                .hasMessageContaining("fsync=off").hasMessageContaining("./run-local stop");
        assertThatThrownBy(() -> DURABLE.check(fastRun)).hasMessageContaining("without fsync");
    }

    @Test
    void theReportSaysWhichPostgresRan() {
        assertThat(DURABLE.markdown()).contains("PostgreSQL durable").contains("fsync=on");
        assertThat(FAST.markdown()).contains("**not durable**").contains("fsync=off");
    }
}
