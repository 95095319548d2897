package io.profilestore.support;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A list of names in the configuration: a YAML list, or one string of names separated by commas, which is what an
 * environment variable substituted into the YAML gives ({@code ${NAMES:-}}). Blank names are left out.
 */
public final class CommaSeparated extends JsonDeserializer<List<String>> {

    @Override
    public List<String> deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        var names = new ArrayList<String>();
        if (parser.currentToken() == JsonToken.START_ARRAY) {
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (parser.currentToken() != JsonToken.VALUE_STRING) {
                    return context.reportInputMismatch(this, "a list of names holds texts only, not %s",
                            parser.currentToken());
                }
                names.add(parser.getText());
            }
        } else {
            names.addAll(Arrays.asList(parser.getValueAsString("").split(",")));
        }
        return names.stream().filter(name -> name != null && !name.isBlank()).map(String::strip).toList();
    }

    @Override
    public List<String> getNullValue(DeserializationContext context) {
        return List.of();
    }
}
