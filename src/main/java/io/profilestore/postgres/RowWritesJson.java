package io.profilestore.postgres;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonAutoDetect.Visibility;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserRow;
import java.util.List;

/**
 * A change's rows and records as JSON, kept in PostgreSQL to complete the change ({@link PostgresUnsettledChanges}): each
 * write named by its kind, each row by its fields as they are, not as its accessors read them ({@link ProfileRow#home}
 * answers the user for a row with no home of its own; written back so, the row would gain one).
 */
final class RowWritesJson {

    private static final ObjectMapper JSON = Jackson.newObjectMapper()
            .addMixIn(RowWrite.class, RowWriteKinds.class)
            .addMixIn(ProfileRow.class, FieldsAsTheyAre.class)
            .addMixIn(UserRow.class, FieldsAsTheyAre.class);

    private static final TypeReference<List<RowWrite>> WRITES = new TypeReference<>() { };
    private static final TypeReference<List<OutboxRecord>> RECORDS = new TypeReference<>() { };

    @JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(RowWrite.PutProfile.class), @JsonSubTypes.Type(RowWrite.EraseProfile.class),
            @JsonSubTypes.Type(RowWrite.PutUser.class), @JsonSubTypes.Type(RowWrite.PutNewUser.class),
            @JsonSubTypes.Type(RowWrite.LinkProfile.class), @JsonSubTypes.Type(RowWrite.OwnLink.class),
            @JsonSubTypes.Type(RowWrite.UnlinkProfile.class), @JsonSubTypes.Type(RowWrite.RecordVersion.class),
            @JsonSubTypes.Type(RowWrite.ForgetVersion.class), @JsonSubTypes.Type(RowWrite.PurgeVersions.class)})
    private interface RowWriteKinds {
    }

    @JsonAutoDetect(fieldVisibility = Visibility.ANY, getterVisibility = Visibility.NONE,
            isGetterVisibility = Visibility.NONE)
    private interface FieldsAsTheyAre {
    }

    private RowWritesJson() {
    }

    static String writes(List<RowWrite> writes) {
        return write(JSON.writerFor(WRITES), writes);
    }

    static String records(List<OutboxRecord> records) {
        return write(JSON.writerFor(RECORDS), records);
    }

    static List<RowWrite> writes(String json) {
        return read(json, WRITES);
    }

    static List<OutboxRecord> records(String json) {
        return read(json, RECORDS);
    }

    private static String write(com.fasterxml.jackson.databind.ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a change's rows could not be written as JSON", e);
        }
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a change's rows kept to complete it could not be read", e);
        }
    }
}
