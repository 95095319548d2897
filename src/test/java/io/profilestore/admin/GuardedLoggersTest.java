package io.profilestore.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which loggers log-level may raise: not those that print credentials or bodies, their ancestors or the root. */
class GuardedLoggersTest {

    @Test
    void guardedLoggersTheirChildrenTheirAncestorsAndTheRootCannotBeRaised() {
        for (String logger : Arrays.asList("org.eclipse.jetty", "org.eclipse.jetty.server.HttpChannel", "Org.Eclipse.Jetty",
                "org.apache.hc.client5.http.wire", "org.apache.http.wire", "org.glassfish.jersey.logging",
                "com.datastax.oss.driver", "io.netty.handler.logging", "org.postgresql.Driver", "com.rabbitmq.client",
                "co.elastic.clients", "org.elasticsearch.client.RestClient", "tracer", "com.zaxxer.hikari",
                "org", "org.eclipse", "com", "io", "co", "", " ", "ROOT", "root", null)) {
            for (String level : List.of("DEBUG", "TRACE", "ALL", "debug", " Debug ", "nonsense")) {
                assertThat(GuardedLoggers.maySet(logger, level)).as(logger + " to " + level).isFalse();
            }
            for (String level : List.of("INFO", "WARN", "error", "OFF")) {
                assertThat(GuardedLoggers.maySet(logger, level)).as(logger + " to " + level).isTrue();
            }
            assertThat(GuardedLoggers.maySet(logger, null)).as(logger + " reset").isTrue();
        }
    }

    @Test
    void otherLoggersCanBeRaised() {
        for (String logger : List.of("io.profilestore", "io.profilestore.core.ChangeRunner", "org.flywaydb",
                "org.eclipsejetty", "com.datastaxx", "tracers", "io.dropwizard.jersey")) {
            assertThat(GuardedLoggers.maySet(logger, "DEBUG")).as(logger).isTrue();
        }
    }
}
