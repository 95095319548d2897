package io.profilestore.profiles;

/** A request's content is well-formed JSON but not an acceptable profile change. */
public class InvalidDocumentException extends RuntimeException {

    public InvalidDocumentException(String message) {
        super(message);
    }
}
