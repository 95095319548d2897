package io.profilestore.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * How the service's packages may use each other (docs/development.md, "Packages"): no package in a circle with
 * another, and every import downwards. From the top: the application and its commands, which wire everything; the HTTP
 * edge; the domain; the stores' adapters; the write path with the ports it owns, which the adapters implement and never
 * the reverse; and at the bottom what every layer may use (wire types, the backends' clients, small tools).
 */
class ArchitectureTest {

    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.profilestore");

    /** Each package with its subpackages is one slice; the root package (the application) is one too. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (!name.startsWith("io.profilestore")) {
                return SliceIdentifier.ignore();
            }
            String rest = name.substring("io.profilestore".length());
            return SliceIdentifier.of(rest.isEmpty() ? "the application" : rest.substring(1).split("\\.")[0]);
        }

        @Override
        public String getDescription() {
            return "the service's packages";
        }
    };

    @Test
    void noPackageIsInACircle() {
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(SERVICE);
    }

    @Test
    void everyImportGoesDownwards() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("application").definedBy("io.profilestore", "io.profilestore.cli..", "io.profilestore.config..",
                        "io.profilestore.wiring..")
                .layer("http").definedBy("io.profilestore.resources..", "io.profilestore.health..",
                        "io.profilestore.admin..", "io.profilestore.console..", "io.profilestore.limits..")
                .layer("domain").definedBy("io.profilestore.profiles..", "io.profilestore.users..",
                        "io.profilestore.history..", "io.profilestore.changestream..",
                        "io.profilestore.tablecheck..", "io.profilestore.search..", "io.profilestore.indexer..",
                        "io.profilestore.importer..", "io.profilestore.audit..", "io.profilestore.auth..",
                        "io.profilestore.schema..")
                .layer("adapters").definedBy("io.profilestore.cassandra..", "io.profilestore.postgres..",
                        "io.profilestore.elasticsearch..", "io.profilestore.events..")
                .layer("write path").definedBy("io.profilestore.change..")
                .layer("base").definedBy("io.profilestore.api..", "io.profilestore.backends..",
                        "io.profilestore.support..", "io.profilestore.progress..")
                .whereLayer("application").mayNotBeAccessedByAnyLayer()
                .whereLayer("http").mayOnlyBeAccessedByLayers("application")
                .whereLayer("domain").mayOnlyBeAccessedByLayers("application", "http")
                .whereLayer("adapters").mayOnlyBeAccessedByLayers("application", "domain")
                .whereLayer("write path").mayOnlyAccessLayers("base")
                .whereLayer("base").mayNotAccessAnyLayer()
                .check(SERVICE);
    }
}
