package io.profilestore.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.jackson.Jackson;
import io.profilestore.api.JsonFormat;
import io.profilestore.profiles.Documents;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An import's records checked as the API checks a create, and the ids it makes for those that give none. */
class RecordReaderTest {

    static final Instant STARTED = Instant.parse("2026-12-01T00:00:00Z");
    static final String SECRET = "Секретова";

    final RecordReader reader = new RecordReader(JsonFormat.configure(Jackson.newObjectMapper()),
            new Documents(JsonFormat.configure(Jackson.newObjectMapper()), 1024), STARTED);

    @Test
    void aRecordKeepsItsPidUserAndTimeAndItsDocumentIsStoredCompact() {
        var pid = UUID.randomUUID();
        var uid = UUID.randomUUID();

        var record = reader.read(7, "{\"pid\": \"" + pid + "\", \"uid\": \"" + uid + "\", \"createdAt\":"
                + " \"2019-05-01T10:00:00Z\", \"data\": {\"surname\": \"Иванов\",  \"n\": 0.10}}");

        assertThat(record).isEqualTo(new ImportRecord(7, pid, uid, "{\"surname\":\"Иванов\",\"n\":0.10}",
                Instant.parse("2019-05-01T10:00:00Z")));
    }

    @Test
    void idsLeftOutAreMadeFromTheRecordTheSameEachTimeAndWhereverItIsRead() {
        String text = "{\"data\": {\"surname\": \"Петров\"}}";

        var first = reader.read(3, text);
        var again = reader.read(3, text);
        var moved = reader.read(4, text);
        var other = reader.read(4, "{\"data\": {\"surname\": \"Петрова\"}}");

        assertThat(again).isEqualTo(first);
        assertThat(moved.pid()).as("a line before it removed: the same profile").isEqualTo(first.pid());
        assertThat(other.pid()).as("another record, another profile").isNotEqualTo(first.pid());
        assertThat(first.uid()).as("a user of its own").isNotEqualTo(other.uid()).isNotEqualTo(first.pid());
        assertThat(first.createdAt()).as("the import's start").isEqualTo(STARTED);
        var under = UUID.randomUUID();
        assertThat(reader.read(5, "{\"uid\": \"" + under + "\", \"data\": {}}").uid()).isEqualTo(under);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not JSON                 | {"data": {"surname": "Секретова"}           | malformed JSON at column
            an array                 | [{"data": {}}]                               | not a JSON object
            no data                  | {"pid": "%s"}                                | data is required
            data not an object       | {"data": ["Секретова"]}                      | data must be a JSON object, not an array
            an unknown member        | {"data": {}, "surname": "Секретова"}        | unknown member 'surname'
            a pid that is no UUID    | {"pid": "Секретова", "data": {}}            | 'pid' is not a UUID
            a uid that is no UUID    | {"uid": 5, "data": {}}                       | 'uid' is not a UUID
            a createdAt no instant   | {"createdAt": "yesterday", "data": {}}       | 'createdAt' is not an instant
            a duplicate key          | {"data": {}, "data": {}}                     | malformed JSON
            two records on a line    | {"data": {}} {"data": {"n": "Секретова"}}   | malformed JSON
            too large                | {"data": {"x": "%s"}}                        | the limit is 1024
            """)
    void aRecordTheApiWouldRefuseIsRejectedWithAReasonThatQuotesNothingOfIt(String name, String text, String reason) {
        String record = text.contains("%s") ? text.formatted(name.equals("too large") ? SECRET.repeat(100)
                : UUID.randomUUID()) : text;

        assertThatThrownBy(() -> reader.read(9, record)).isInstanceOfSatisfying(RejectedRecord.class, rejected -> {
            assertThat(rejected.position()).isEqualTo(9);
            assertThat(rejected.reason()).contains(reason).doesNotContain(SECRET);
        });
    }

    @Test
    void aRejectedRecordNamesThePidItGave() {
        var pid = UUID.randomUUID();
        assertThatThrownBy(() -> reader.read(2, "{\"pid\": \"" + pid + "\", \"data\": 3}"))
                .isInstanceOfSatisfying(RejectedRecord.class, r -> assertThat(r.pid()).isEqualTo(pid.toString()));
    }

    @Test
    void aPidThatIsNoUuidIsNotRepeatedInTheRejection() {
        // whatever stands in "pid" may be a customer's number: only a UUID is named
        assertThatThrownBy(() -> reader.read(4, "{\"pid\": \"" + SECRET + "\", \"extra\": 1, \"data\": {}}"))
                .isInstanceOfSatisfying(RejectedRecord.class, r -> {
                    assertThat(r.pid()).isNull();
                    assertThat(r.reason()).contains("unknown member 'extra'");
                });
    }

    @Test
    void aLineThatIsNotUtf8IsRejectedAsSuch() {
        assertThatThrownBy(() -> reader.read(5, null)).isInstanceOfSatisfying(RejectedRecord.class, r -> {
            assertThat(r.position()).isEqualTo(5);
            assertThat(r.reason()).contains("not UTF-8");
        });
    }
}
