package io.profilestore.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.util.Duration;
import org.junit.jupiter.api.Test;

/** The refresh interval's comparison, without Elasticsearch (its round trip: {@code ElasticsearchSchemaIT}). */
class ElasticsearchSchemaTest {

    @Test
    void aRefreshIntervalIsComparedByItsLengthWhateverItsUnits() {
        assertThat(ElasticsearchSchema.sameInterval("1s", Duration.milliseconds(1000))).isTrue();
        assertThat(ElasticsearchSchema.sameInterval("500ms", Duration.milliseconds(500))).isTrue();
        assertThat(ElasticsearchSchema.sameInterval("1m", Duration.seconds(60))).isTrue();
        assertThat(ElasticsearchSchema.sameInterval("1s", Duration.milliseconds(500))).isFalse();
        assertThat(ElasticsearchSchema.sameInterval("-1", Duration.seconds(1))).as("never refreshed").isFalse();
    }
}
