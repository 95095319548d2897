package io.profilestore.auth;

import java.util.Locale;

/**
 * What a caller may do; whether it is a machine or a person is its credential's to say ({@link Caller#isMachine()}).
 * {@code platform}: the processing platform, which changes profiles and users and reads and searches them; the
 * others are people's roles:
 * {@code operator}, people at a bank's desk, who read and search only; {@code editor}, the data steward, who
 * changes profiles as the platform does and merges and unmerges users; {@code admin}, who merges, unmerges, reads
 * the audit trail and finds and reads the people they merge.
 */
public enum Role {
    PLATFORM, OPERATOR, EDITOR, ADMIN;

    public static final String PLATFORM_NAME = "platform";
    public static final String EDITOR_NAME = "editor";
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
        throw new IllegalArgumentException("unknown role '" + name
                + "': platform, operator, editor or admin (exactly, in lower case)");
    }
}
