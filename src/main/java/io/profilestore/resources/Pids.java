package io.profilestore.resources;

import io.profilestore.resources.problems.ProblemException;
import java.util.UUID;
import java.util.regex.Pattern;

/** Path identifiers: parsed here so that a malformed one is a clear 400, not Jersey's bare 404. */
final class Pids {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Pids() {
    }

    static UUID parse(String name, String value) {
        if (value == null || !UUID_TEXT.matcher(value).matches()) {
            throw ProblemException.badRequest(name + " must be a UUID such as 3f2b8c1e-0a4d-4e5f-9b6a-7c8d9e0f1a2b");
        }
        return UUID.fromString(value);
    }
}
