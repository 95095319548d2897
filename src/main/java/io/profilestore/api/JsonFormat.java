package io.profilestore.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** The JSON of the API, of imports and of the documents the service keeps. */
public final class JsonFormat {

    /** Deepest nesting a request body may have: profiles are records, not trees of arbitrary depth. */
    public static final int MAX_DEPTH = 64;

    private JsonFormat() {
    }

    /**
     * Request bodies as the profile store needs them: unknown fields and duplicate keys refused, numbers kept
     * exact (a document's 0.1 stays 0.1, its 20-digit integers stay whole), nesting bounded.
     */
    public static ObjectMapper configure(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
        return mapper;
    }
}
