package io.profilestore.support;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import java.io.IOException;

/**
 * Reads a text setting without the white space around it, and a null one as empty. The YAML's values come from
 * environment variables and mounted files, which may carry a stray space or newline, and an unset
 * {@code ${NAME:-}} arrives as null: the settings that use it need no null checks. Put it on a field with
 * {@code @JsonDeserialize(using = StrippedText.class)}.
 */
public final class StrippedText extends StringDeserializer {

    @Override
    public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        var text = super.deserialize(parser, context);
        return text == null ? "" : text.strip();
    }

    @Override
    public String getNullValue(DeserializationContext context) {
        return "";
    }
}
