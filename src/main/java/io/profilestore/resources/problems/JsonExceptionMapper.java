package io.profilestore.resources.problems;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.profilestore.api.Problem;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.stream.Collectors;

/**
 * A body that is not the JSON we expect. The detail says where, never what: Jackson's own messages quote the
 * input, which may be personal data.
 */
public class JsonExceptionMapper implements ExceptionMapper<JsonProcessingException> {

    @Override
    public Response toResponse(JsonProcessingException exception) {
        var carried = Problems.carried(exception);
        if (carried.isPresent()) {
            return Problems.response(carried.get());
        }
        // Jackson wraps errors of the parser met while binding a field; the parser's error is the one to tell
        var parse = parseError(exception);
        String where = where(parse != null ? parse : exception);
        Problem problem;
        if (parse instanceof StreamConstraintsException) {
            problem = Problem.of(400, "malformed-json", "Malformed JSON", "the JSON is nested too deeply or too long" + where);
        } else if (parse != null) {
            problem = Problem.of(400, "malformed-json", "Malformed JSON", "the body is not valid JSON" + where);
        } else if (exception instanceof UnrecognizedPropertyException e) {
            problem = Problem.of(400, "unknown-field", "Unknown field",
                    "unknown field '" + e.getPropertyName() + "'; known: " + e.getKnownPropertyIds());
        } else if (exception instanceof JsonMappingException e) {
            String path = e.getPath().stream()
                    .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                    .collect(Collectors.joining("."));
            problem = Problem.of(400, "invalid-field", "Invalid field",
                    (path.isEmpty() ? "the body" : "field '" + path + "'") + " has the wrong type or format" + where);
        } else {
            problem = Problem.of(400, "malformed-json", "Malformed JSON", "the body could not be read" + where);
        }
        return Problems.response(problem);
    }

    private static JsonProcessingException parseError(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof JsonParseException || t instanceof StreamConstraintsException) {
                return (JsonProcessingException) t;
            }
        }
        return null;
    }

    private static String where(JsonProcessingException exception) {
        return exception.getLocation() == null ? ""
                : " at line " + exception.getLocation().getLineNr() + ", column " + exception.getLocation().getColumnNr();
    }
}
