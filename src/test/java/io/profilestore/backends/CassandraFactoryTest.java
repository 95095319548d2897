package io.profilestore.backends;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.jersey.validation.Validators;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;

/** The Cassandra settings' rules on who logs in, with Dropwizard's validator (no node). */
class CassandraFactoryTest {

    final Validator validator = Validators.newValidator();

    static CassandraFactory logins(String username, String migrationUsername) {
        var settings = new CassandraFactory();
        settings.username = username;
        settings.password = "a password";
        settings.migrationUsername = migrationUsername;
        settings.migrationPassword = "cassandra";
        return settings;
    }

    @Test
    void aMigrationUserWithoutTheServicesRoleIsAConfigurationError() {
        assertThat(validator.validate(logins("", "cassandra")))
                .extracting(violation -> violation.getMessage())
                .containsExactly("migrationUsername needs username: the role migrate makes for the service");
        assertThat(validator.validate(logins(null, "cassandra"))).hasSize(1);
    }

    @Test
    void aMigrationUserBesideTheServicesRoleOrNoneAtAllIsValid() {
        assertThat(validator.validate(logins("profile_store_service", "cassandra"))).isEmpty();
        assertThat(validator.validate(logins("profile_store_service", ""))).isEmpty();
        assertThat(validator.validate(logins(null, ""))).as("a cluster without logins").isEmpty();
    }

    @Test
    void migrateLogsInAsASuperuserOfItsOwnOnlyWhenOneIsNamedBesideTheRole() {
        assertThat(logins("profile_store_service", "cassandra").hasSeparateMigrationUser()).isTrue();
        assertThat(logins("profile_store_service", "").hasSeparateMigrationUser()).isFalse();
        assertThat(logins("profile_store_service", "profile_store_service").hasSeparateMigrationUser())
                .as("the role itself named as the migration user").isFalse();
    }
}
