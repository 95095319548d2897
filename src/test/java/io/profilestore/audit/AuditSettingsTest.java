package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.util.Duration;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;

/** The audit settings' bounds, with Dropwizard's validator (no stack). */
class AuditSettingsTest {

    final Validator validator = Validators.newValidator();

    AuditSettings withMaxWait(Duration maxWait) {
        var settings = new AuditSettings();
        settings.maxWait = maxWait;
        return settings;
    }

    @Test
    void aMaxWaitBeyondTenSecondsIsRefused() {
        assertThat(validator.validate(withMaxWait(Duration.seconds(10)))).isEmpty();
        assertThat(validator.validate(withMaxWait(Duration.seconds(11))))
                .extracting(violation -> violation.getPropertyPath().toString()).containsExactly("maxWait");
    }

    @Test
    void theOutcomeQueueSizeIsBounded() {
        var settings = new AuditSettings();
        assertThat(settings.outcomeQueueSize).isEqualTo(10_000);
        settings.outcomeQueueSize = 0;
        assertThat(validator.validate(settings)).extracting(violation -> violation.getPropertyPath().toString())
                .containsExactly("outcomeQueueSize");
        settings.outcomeQueueSize = 100_001;
        assertThat(validator.validate(settings)).extracting(violation -> violation.getPropertyPath().toString())
                .containsExactly("outcomeQueueSize");
    }

    @Test
    void theWritersStopWaitsMaxWaitButNoLongerThanTheBound() {
        assertThat(withMaxWait(Duration.seconds(2)).stopWait()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(withMaxWait(Duration.seconds(10)).stopWait()).isEqualTo(AuditSettings.MAX_STOP_WAIT);
    }

    @Test
    void theMachineSearchQueueAndLingerAreBounded() {
        var settings = new AuditSettings();
        assertThat(settings.machineSearchQueueSize).isEqualTo(10_000);
        assertThat(settings.machineSearchLinger).isEqualTo(Duration.milliseconds(20));
        settings.machineSearchQueueSize = 0;
        settings.machineSearchLinger = Duration.seconds(2);
        assertThat(validator.validate(settings)).extracting(violation -> violation.getPropertyPath().toString())
                .containsExactlyInAnyOrder("machineSearchQueueSize", "machineSearchLinger");
        settings.machineSearchQueueSize = 100_001;
        settings.machineSearchLinger = Duration.seconds(1);
        assertThat(validator.validate(settings)).extracting(violation -> violation.getPropertyPath().toString())
                .containsExactly("machineSearchQueueSize");
    }

    @Test
    void theMachineLookUpWritersStopWaitsOneSecondAtMost() {
        assertThat(withMaxWait(Duration.milliseconds(300)).machineSearchStopWait()).isEqualTo(java.time.Duration.ofMillis(300));
        assertThat(withMaxWait(Duration.seconds(5)).machineSearchStopWait())
                .isEqualTo(AuditSettings.MAX_MACHINE_SEARCH_STOP_WAIT);
    }
}
