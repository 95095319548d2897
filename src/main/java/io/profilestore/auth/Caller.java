package io.profilestore.auth;

import java.security.Principal;
import java.util.Set;

/**
 * Who sent a request: an API key's name or a JWT's subject, the roles it has, and whether its credential was made for
 * a machine (an API key whose entry says {@code machine: true}, a JWT of a client on {@code jwt.machineClients}).
 */
public record Caller(String name, Kind kind, Set<Role> roles, boolean machine) implements Principal {

    public enum Kind { API_KEY, JWT, ANONYMOUS }

    /** Every role, for a service run with authentication off (a developer's machine); audited as a person. */
    public static final Caller ANONYMOUS = new Caller("anonymous", Kind.ANONYMOUS, Set.of(Role.values()));

    public Caller {
        roles = Set.copyOf(roles);
    }

    /** A person: whoever a credential was not made for a machine, whatever its roles. */
    public Caller(String name, Kind kind, Set<Role> roles) {
        this(name, kind, roles, false);
    }

    /** A machine: a client system, named as one by its credential. */
    public static Caller machine(String name, Kind kind, Set<Role> roles) {
        return new Caller(name, kind, roles, true);
    }

    @Override
    public String getName() {
        return name;
    }

    public boolean has(Role role) {
        return roles.contains(role);
    }

    /**
     * Whether this is a machine, the processing platform: only when its credential was made for one. Roles never
     * make a machine (a person's provider may grant {@code platform} alone, and a platform key may leak to a person),
     * so everyone else is a person, whose every look-up is recorded before it is answered; a machine's look-ups are
     * recorded just after.
     */
    public boolean isMachine() {
        return machine;
    }
}
