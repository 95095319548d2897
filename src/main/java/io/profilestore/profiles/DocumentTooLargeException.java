package io.profilestore.profiles;

/** A profile document over the size limit. */
public class DocumentTooLargeException extends LimitExceededException {

    public DocumentTooLargeException(int bytes, int limit) {
        super("the document is " + bytes + " bytes of JSON", limit);
    }
}
