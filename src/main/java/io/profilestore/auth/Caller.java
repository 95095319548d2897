package io.profilestore.auth;

import java.security.Principal;
import java.util.Set;

/** Who sent a request: an API key's name or a JWT's subject, and the roles it has. */
public record Caller(String name, Kind kind, Set<Role> roles) implements Principal {

    public enum Kind { API_KEY, JWT, ANONYMOUS }

    /** Every role, for a service run with authentication off (a developer's machine). */
    public static final Caller ANONYMOUS = new Caller("anonymous", Kind.ANONYMOUS, Set.of(Role.values()));

    public Caller {
        roles = Set.copyOf(roles);
    }

    @Override
    public String getName() {
        return name;
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    /** A person's credential: it holds a role other than {@code platform}, the one role of machines. */
    public boolean isPerson() {
        return roles.stream().anyMatch(role -> role != Role.PLATFORM);
    }
}
