package io.profilestore.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dropwizard.jersey.validation.Validators;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the constraints of the request records refuse, and what they leave to the core: the rules with a configured
 * limit or their own problem type (an empty or oversized batch, a null {@code data}, an unmerge's either-or).
 */
class RequestConstraintsTest {

    private static final Validator VALIDATOR = Validators.newValidator();
    private static final UUID PID = UUID.randomUUID();

    @Test
    void aCompleteBatchUpdateIsValid() {
        var update = new BatchUpdateRequest.Update(PID, 3L, JsonNodeFactory.instance.objectNode());

        assertThat(violations(new BatchUpdateRequest(List.of(update)))).isEmpty();
    }

    @Test
    void aBatchUpdateNeedsItsListAndEachUpdateItsPidAndVersion() {
        assertThat(violations(new BatchUpdateRequest(null))).containsExactly("updates must not be null");
        assertThat(violations(new BatchUpdateRequest(Arrays.asList(
                new BatchUpdateRequest.Update(null, null, null), null))))
                .containsExactlyInAnyOrder("updates[0].pid must not be null", "updates[0].version must not be null",
                        "updates[1].<list element> must not be null");
    }

    @Test
    void aBatchCreateNeedsItsListWithoutNulls() {
        assertThat(violations(new BatchCreateRequest(List.of(new BatchCreateRequest.New(null))))).isEmpty();
        assertThat(violations(new BatchCreateRequest(null))).containsExactly("profiles must not be null");
        assertThat(violations(new BatchCreateRequest(Arrays.asList(new BatchCreateRequest.New(null), null))))
                .containsExactly("profiles[1].<list element> must not be null");
    }

    @Test
    void theUserOperationsNeedWhomTheyMove() {
        assertThat(violations(new UserRequests.Move(PID))).isEmpty();
        assertThat(violations(new UserRequests.Move(null))).containsExactly("uid must not be null");
        assertThat(violations(new UserRequests.Merge(List.of(PID)))).isEmpty();
        assertThat(violations(new UserRequests.Merge(null))).containsExactly("sources must not be null");
    }

    @Test
    void theRulesWithAConfiguredLimitOrTheirOwnProblemTypeAreLeftToTheCore() {
        assertThat(violations(new BatchUpdateRequest(List.of()))).as("empty: invalid-document").isEmpty();
        assertThat(violations(new BatchCreateRequest(List.of()))).as("empty: invalid-document").isEmpty();
        assertThat(violations(new UserRequests.Merge(Arrays.asList(PID, null)))).as("invalid-request").isEmpty();
        assertThat(violations(new UserRequests.Unmerge(null, null))).as("neither: invalid-request").isEmpty();
    }

    private static List<String> violations(Object request) {
        return VALIDATOR.validate(request).stream()
                .map(RequestConstraintsTest::describe)
                .toList();
    }

    private static String describe(ConstraintViolation<?> violation) {
        return violation.getPropertyPath() + " " + violation.getMessage();
    }
}
