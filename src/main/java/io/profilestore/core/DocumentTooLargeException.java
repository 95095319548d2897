package io.profilestore.core;

/** A profile document over the size limit. */
public class DocumentTooLargeException extends RuntimeException {

    private final int bytes;
    private final int limit;

    public DocumentTooLargeException(int bytes, int limit) {
        super("the document is " + bytes + " bytes of JSON; the limit is " + limit);
        this.bytes = bytes;
        this.limit = limit;
    }

    public int bytes() {
        return bytes;
    }

    public int limit() {
        return limit;
    }
}
