package io.profilestore.search;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.util.Duration;
import io.profilestore.support.StrippedText;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** How search pages are handed out, and the keys numbers are hashed with for the index. */
@ReadableNumberKeys
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

    /**
     * The keys phone numbers, document numbers and e-mail addresses are hashed with for the index
     * ({@link NumberKeys}): {@code id:base64} ({@code k1:$(openssl rand -base64 32)}), several comma-separated while
     * one replaces another. The same on the API and the indexer, and kept: a search finds only what was indexed with
     * a key it has. Unset: the development key, allowed only with authentication off (a local run).
     */
    @JsonDeserialize(using = StrippedText.class)
    public String numberKeys = "";
}
