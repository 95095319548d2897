package io.profilestore.admin;

import ch.qos.logback.classic.LoggerContext;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin port's tasks, on either role's admin port: each recorded in the audit trail before it runs
 * ({@link TaskAudit}), and log-level kept from raising the loggers that print credentials or bodies
 * ({@link LogLevelGuard}), nor the configuration's levels raise them ({@link GuardedLoggers#holdAtInfo}). Installed after the admin port's authentication, so that the record knows who asked.
 */
public final class AdminTasks {

    private static final Logger LOG = LoggerFactory.getLogger(AdminTasks.class);

    private AdminTasks() {
    }

    public static void install(Environment environment, DataSource postgres) {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext logback) {
            var held = GuardedLoggers.holdAtInfo(logback);
            if (!held.isEmpty()) {
                LOG.warn("loggers that would print credentials or bodies are held at INFO, whatever the configured level: {}",
                        held);
            }
        }
        var admin = environment.admin();
        admin.addFilter("task-audit", new TaskAudit(postgres, environment.metrics()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/tasks/*");
        admin.addFilter("log-level-guard", new LogLevelGuard())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/tasks/*");
    }
}
