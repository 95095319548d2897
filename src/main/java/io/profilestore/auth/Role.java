package io.profilestore.auth;

import java.util.Locale;

/**
 * What a caller may do. {@code platform}: the processing platform, which changes profiles and users and reads
 * and searches them; {@code operator}: people at a bank's desk, who read and search only (every look-up audited);
 * {@code admin}: merges, unmerges, index maintenance and the audit trail.
 */
public enum Role {
    PLATFORM, OPERATOR, ADMIN;

    public static final String PLATFORM_NAME = "platform";
    public static final String OPERATOR_NAME = "operator";
    public static final String ADMIN_NAME = "admin";

    public String roleName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role of exactly this name. No case folding, no trimming: Unicode folding would make look-alikes roles
     * ({@code admın} upper-cases to ADMIN), and a token's roles claim may carry other applications' roles.
     */
    public static Role of(String name) {
        for (Role role : values()) {
            if (role.roleName().equals(name)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown role '" + name + "': platform, operator or admin (exactly, in lower case)");
    }
}
