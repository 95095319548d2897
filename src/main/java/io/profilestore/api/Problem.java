package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * An error on the wire: RFC 9457 problem details, with extension members where they help the caller (which
 * pids were stale, which were locked). Never a stack trace, never a document's content.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail"})
public record Problem(String type, String title, int status, String detail,
        @JsonAnyGetter Map<String, Object> extensions) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final MediaType MEDIA = MediaType.valueOf(MEDIA_TYPE);

    /** Problem types are documented in docs/api.md under "Errors"; the slug names the kind of error. */
    public static final String TYPE_BASE = "https://profile-store.dev/problems/";

    public Problem {
        extensions = extensions == null ? Map.of() : Map.copyOf(extensions);
    }

    public static Problem of(int status, String slug, String title, String detail) {
        return new Problem(TYPE_BASE + slug, title, status, detail, Map.of());
    }

    public Problem with(Map<String, Object> more) {
        return new Problem(type, title, status, detail, more);
    }
}
