package io.profilestore.resources;

import io.profilestore.resources.problems.ProblemException;

/**
 * {@code If-None-Match: *} on {@code PUT /v1/profiles/{pid}}: create the profile there only if none exists (RFC 9110,
 * 13.1.2), how an import keeps a system's pids. It takes {@code *} alone, never beside If-Match, and nowhere else.
 */
final class IfNoneMatch {

    private IfNoneMatch() {
    }

    /** Whether the header asks for a create; refused (400) where it cannot. */
    static boolean isCreate(String header) {
        return header != null && !header.isBlank();
    }

    /** @param createsHere whether the resource method creates at its pid ({@link CreatesAtPid}) */
    static void requireCreate(String ifNoneMatch, String ifMatch, boolean createsHere) {
        if (!createsHere) {
            throw ProblemException.badRequest("If-None-Match: * creates a profile, with PUT /v1/profiles/{pid} only");
        }
        if (!ifNoneMatch.trim().equals("*")) {
            throw ProblemException.badRequest("If-None-Match takes * alone: create the profile if there is none");
        }
        if (ifMatch != null) {
            throw ProblemException.badRequest("send If-Match to change a profile or If-None-Match: * to create one,"
                    + " not both");
        }
    }
}
