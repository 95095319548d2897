package io.profilestore.search;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.util.Duration;
import io.profilestore.support.StrippedText;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** How search pages are handed out. */
public class SearchSettings {

    /**
     * The key that seals cursors (AES-256-GCM): 32 random bytes in base64 ({@code openssl rand -base64 32}), the
     * same on every API instance, since the next page may be asked of another. Unset, each instance makes its own
     * at start, and a cursor works only on the instance that gave it out (and not after its restart).
     */
    @Pattern(regexp = "^$|^[A-Za-z0-9+/]{43}=$", message = "must be 32 bytes in base64 (openssl rand -base64 32), or empty")
    @JsonDeserialize(using = StrippedText.class)
    public String cursorKey = "";

    /**
     * How long a cursor leads to the next page. Elasticsearch keeps nothing between pages, so this is the only
     * bound: a cursor is a short-lived continuation, not a bookmark.
     */
    @NotNull
    public Duration cursorTtl = Duration.minutes(2);
}
