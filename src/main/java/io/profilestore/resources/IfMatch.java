package io.profilestore.resources;

import io.profilestore.api.Problem;
import io.profilestore.resources.problems.ProblemException;
import java.util.regex.Pattern;

/**
 * The {@code If-Match} header every change needs: the version the caller read, as its strong ETag {@code "7"}.
 * Without it a change could overwrite one the caller never saw, so it is required (428), and {@code *} is not
 * enough. Weak tags never match (RFC 9110 compares strongly), so they fail the precondition like a stale one.
 */
final class IfMatch {

    private static final Pattern STRONG = Pattern.compile("\"(\\d{1,18})\"");
    private static final Pattern WEAK = Pattern.compile("W/\"\\d{1,18}\"");

    /** A version no profile ever has: compares unequal to every current version. */
    static final long NEVER = -1;

    private IfMatch() {
    }

    static long version(String header) {
        if (header == null || header.isBlank()) {
            throw new ProblemException(Problem.of(428, "precondition-required", "Precondition required",
                    "send If-Match with the ETag of the version you read, e.g. If-Match: \"3\""));
        }
        String value = header.trim();
        if (value.equals("*")) {
            throw new ProblemException(Problem.of(428, "precondition-required", "Precondition required",
                    "If-Match: * does not say which version you read; send its ETag, e.g. If-Match: \"3\""));
        }
        var strong = STRONG.matcher(value);
        if (strong.matches()) {
            return Long.parseLong(strong.group(1));
        }
        if (WEAK.matcher(value).matches()) {
            return NEVER;
        }
        throw ProblemException.badRequest("If-Match must be one ETag such as \"3\"");
    }
}
