package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.testing.ProfileApiOverTwins;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * POST /v1/profiles:batchCreate over the real service and write path: all or none. The refusals of a body without
 * profiles or with a null one are in {@link RequestValidationTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BatchCreateTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    static String batch(List<String> datas) {
        return datas.stream().map(data -> "{\"data\": " + data + "}")
                .collect(Collectors.joining(", ", "{\"profiles\": [", "]}"));
    }

    @Test
    void eachProfileIsAnsweredInTheOrderSentUnderANewUserOfItsOwn() {
        var reply = API.batchCreate(batch(List.of("{\"n\": 0}", "{\"n\": 1}", "{\"n\": 2}")));

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        assertThat(reply.header("Location")).as("many were created: no one Location").isNull();
        assertThat(reply.etag()).isNull();
        var created = reply.json().path("created");
        assertThat(created).hasSize(3);
        var uids = new HashSet<UUID>();
        for (int i = 0; i < 3; i++) {
            var pid = UUID.fromString(created.get(i).path("pid").asText());
            var uid = UUID.fromString(created.get(i).path("uid").asText());
            assertThat(created.get(i).path("version").asLong()).isEqualTo(1);
            var read = API.get(pid);
            assertThat(read.json().path("data").path("n").asInt()).isEqualTo(i);
            assertThat(read.json().path("uid").asText()).isEqualTo(uid.toString());
            assertThat(API.stores.rows.pidsOfUser(uid)).containsExactly(pid);
            uids.add(uid);
        }
        assertThat(uids).hasSize(3);
    }

    @Test
    void aBatchOfTheMostProfilesAllowedIsCreatedAndRecordedAsOneChange() {
        int records = API.stores.audit.records().size();

        var reply = API.batchCreate(batch(Collections.nCopies(ProfileApiOverTwins.MAX_BATCH_SIZE, "{}")));

        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        assertThat(reply.json().path("created")).hasSize(ProfileApiOverTwins.MAX_BATCH_SIZE);
        assertThat(API.stores.audit.records()).hasSize(records + 1);
        assertThat(API.stores.audit.records().get(records).pids()).hasSize(ProfileApiOverTwins.MAX_BATCH_SIZE);
    }

    static Stream<Arguments> refusedBatches() {
        return Stream.of(
                Arguments.of("a document that is an array", batch(List.of("{\"n\": 0}", "[1, 2]")), 400,
                        "invalid-document"),
                Arguments.of("a document that is null", batch(List.of("{\"n\": 0}", "null")), 400, "invalid-document"),
                Arguments.of("a profile without data", "{\"profiles\": [{\"data\": {}}, {}]}", 400, "invalid-document"),
                Arguments.of("no profiles", "{\"profiles\": []}", 400, "invalid-document"),
                Arguments.of("one profile more than allowed",
                        batch(Collections.nCopies(ProfileApiOverTwins.MAX_BATCH_SIZE + 1, "{}")), 400, "invalid-document"),
                Arguments.of("profiles not a list", "{\"profiles\": {\"data\": {}}}", 400, "invalid-field"),
                // each profile goes under a new user: a batch does not take uids
                Arguments.of("a profile with a uid", "{\"profiles\": [{\"uid\": \"" + UUID.randomUUID()
                        + "\", \"data\": {}}]}", 400, "unknown-field"),
                Arguments.of("a document over 64 KiB", batch(List.of("{}", "{\"blob\": \"" + "x".repeat(65_600)
                        + "\"}")), 413, "document-too-large"),
                Arguments.of("malformed JSON", "{\"profiles\": [{\"data\": {}}", 400, "malformed-json"));
    }

    @ParameterizedTest(name = "a batch with {0}")
    @MethodSource("refusedBatches")
    void aBadBatchCreatesNoneOfItsProfiles(String name, String body, int status, String type) {
        int announced = API.stores.outbox.records().size();
        int records = API.stores.audit.records().size();

        assertProblem(API.batchCreate(body), status, type);

        assertThat(API.stores.outbox.records()).as("nothing was announced").hasSize(announced);
        assertThat(API.stores.audit.records()).as("nothing was recorded").hasSize(records);
    }

    @Test
    void aBatchThatDeclaresMoreThanItsLimitIsRefusedBeforeItIsRead() {
        long limit = ProfileResource.BATCH_BODY_LIMIT;

        var reply = API.send("POST", "/v1/profiles:batchCreate", "application/json", batch(List.of("{}")),
                Map.of("Content-Length", Long.toString(limit + 1)));

        assertProblem(reply, 413, "body-too-large");
        assertThat(reply.json().path("limit").asLong()).isEqualTo(limit);
    }

    @Test
    void aBatchLargerThanOneProfilesLimitIsRead() {
        String tenLarge = batch(Collections.nCopies(10, "{\"blob\": \"" + "x".repeat(60_000) + "\"}"));
        assertThat((long) tenLarge.length()).isGreaterThan(ProfileResource.SINGLE_BODY_LIMIT);

        assertThat(API.batchCreate(tenLarge).status()).isEqualTo(201);
    }
}
