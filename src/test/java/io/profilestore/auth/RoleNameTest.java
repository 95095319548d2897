package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A role is its exact name: a token of another application, or a look-alike, grants nothing. */
class RoleNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"admin", "operator", "editor", "platform"})
    void theExactNameIsTheRole(String name) {
        assertThat(Role.of(name).roleName()).isEqualTo(name);
    }

    @ParameterizedTest
    // a dotless ı upper-cases to I, ſ to S, K (Kelvin) lower-cases to k: Unicode case folding must not make them roles
    @ValueSource(strings = {"admın", "ADMIN", "Admin", " admin", "admin ", "operator\n", "Editor", "editor ", "platfoRm", "ſ", "\u212Aey"})
    void aLookAlikeIsNoRole(String name) {
        assertThatThrownBy(() -> Role.of(name)).isInstanceOf(IllegalArgumentException.class);
    }
}
