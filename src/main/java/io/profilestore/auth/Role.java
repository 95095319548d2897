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

    public static Role of(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown role '" + name + "': platform, operator or admin");
        }
    }
}
