package io.profilestore.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
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
        for (String logger : List.of("io.profilestore", "io.profilestore.change.ChangeRunner", "org.flywaydb",
                "org.eclipsejetty", "com.datastaxx", "tracers", "io.dropwizard.jersey")) {
            assertThat(GuardedLoggers.maySet(logger, "DEBUG")).as(logger).isTrue();
        }
    }

    /**
     * A root level of DEBUG (the chart's config.logLevel, LOG_LEVEL) or a guarded logger set low in the file would
     * raise what log-level refuses to: at start they are held at INFO, while the service's own loggers keep DEBUG.
     */
    @Test
    void aLowRootOrFileLevelLeavesTheGuardedLoggersAtInfo() {
        var context = new LoggerContext();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.DEBUG);
        context.getLogger("com.datastax.oss.driver").setLevel(Level.TRACE);
        context.getLogger("org.flywaydb").setLevel(Level.WARN);

        var held = GuardedLoggers.holdAtInfo(context);

        for (String logger : List.of("org.eclipse.jetty.server.HttpChannel", "com.datastax.oss.driver.internal",
                "org.apache.hc.client5.http.wire", "tracer", "org.postgresql")) {
            assertThat(context.getLogger(logger).getEffectiveLevel()).as(logger).isEqualTo(Level.INFO);
        }
        assertThat(held).contains("org.eclipse.jetty", "com.datastax");
        assertThat(context.getLogger("io.profilestore.users").getEffectiveLevel()).isEqualTo(Level.DEBUG);
        assertThat(context.getLogger("org.flywaydb").getEffectiveLevel()).isEqualTo(Level.WARN);

        var quiet = new LoggerContext();
        quiet.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        quiet.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        assertThat(GuardedLoggers.holdAtInfo(quiet)).as("nothing below INFO: nothing to hold").isEmpty();
        assertThat(quiet.getLogger("org.eclipse.jetty").getEffectiveLevel()).isEqualTo(Level.WARN);
    }
}
