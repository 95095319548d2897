package io.profilestore.search;

/** Elasticsearch could not answer a search. */
public class SearchUnavailableException extends RuntimeException {

    public SearchUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
