package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.auth.Role;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every list of roles the OpenAPI document allows names exactly the service's roles: a role added to {@link Role} and
 * missed in one schema (the audit trail's {@code roles}, say) makes every answer showing it one that does not fit.
 */
class OpenApiRolesTest {

    @Test
    void everyEnumerationOfRolesIsTheServicesRoles() throws IOException {
        JsonNode document;
        try (var in = OpenApiRolesTest.class.getResourceAsStream("/openapi/openapi.json")) {
            document = new ObjectMapper().readTree(in);
        }
        var enumerations = new ArrayList<JsonNode>();
        collect(document, enumerations);
        assertThat(enumerations).as("enumerations naming the platform role").isNotEmpty();
        var roles = new TreeSet<>(Arrays.stream(Role.values()).map(Role::roleName).toList());
        for (var enumeration : enumerations) {
            var named = new TreeSet<String>();
            enumeration.forEach(value -> named.add(value.asText()));
            assertThat(named).as("the roles of %s", enumeration).isEqualTo(roles);
        }
    }

    private static void collect(JsonNode node, List<JsonNode> enumerations) {
        var values = node.path("enum");
        if (values.isArray() && values.toString().contains("\"platform\"")) {
            enumerations.add(values);
        }
        node.forEach(child -> collect(child, enumerations));
    }
}
