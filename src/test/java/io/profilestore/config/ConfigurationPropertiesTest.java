package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.AssertFalse;
import jakarta.validation.constraints.AssertTrue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the configuration's classes write as JSON they can read back. A validation method named like a getter
 * ({@code isRolesKnown}) is a property to Jackson unless it is ignored: written as {@code rolesKnown}, it is a field
 * that reading refuses, and Dropwizard's default configuration, made by writing the defaults and reading them back,
 * then fails ("Unrecognized field at: limits.rolesKnown").
 */
class ConfigurationPropertiesTest {

    static final ObjectMapper JSON = Jackson.newObjectMapper();

    @Test
    void everyPropertyAConfigurationClassWritesItCanRead() {
        var classes = configurationClasses();
        var writtenOnly = new ArrayList<String>();
        for (var type : classes) {
            var read = JSON.getDeserializationConfig().introspect(type).findProperties().stream()
                    .filter(BeanPropertyDefinition::couldDeserialize).map(BeanPropertyDefinition::getName)
                    .collect(Collectors.toSet());
            JSON.getSerializationConfig().introspect(type).findProperties().stream()
                    .filter(BeanPropertyDefinition::couldSerialize)
                    .filter(p -> !read.contains(p.getName()))
                    .forEach(p -> writtenOnly.add(type.getRawClass().getName() + "." + p.getName()));
        }
        var validationMethods = classes.stream().flatMap(t -> Stream.of(t.getRawClass().getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(AssertTrue.class) || m.isAnnotationPresent(AssertFalse.class)
                        || m.isAnnotationPresent(ValidationMethod.class))
                .map(m -> m.getDeclaringClass().getSimpleName() + "." + m.getName()).toList();
        assertThat(validationMethods).as("validation methods the walk reached")
                .contains("RateLimitSettings.isRolesKnown", "ReplicationSettings.isDataCentersValidForStrategy",
                        "JwtSettings.isJwksUrlTrusted");
        assertThat(writtenOnly).as("properties written that reading refuses").isEmpty();
    }

    /** The service's classes that the configuration holds, from its root down through fields, lists and maps. */
    static Set<JavaType> configurationClasses() {
        var found = new LinkedHashSet<JavaType>();
        var queue = new ArrayDeque<JavaType>(List.of(JSON.constructType(ProfileStoreConfiguration.class)));
        while (!queue.isEmpty()) {
            var type = queue.pop();
            if (type.isContainerType()) {
                queue.push(type.getContentType());
                continue;
            }
            if (!type.getRawClass().getName().startsWith("io.profilestore.") || type.isEnumType()
                    || found.stream().anyMatch(t -> t.getRawClass() == type.getRawClass())) {
                continue;
            }
            found.add(type);
            JSON.getDeserializationConfig().introspect(type).findProperties()
                    .forEach(p -> queue.push(p.getPrimaryType()));
        }
        return found;
    }
}
