package io.profilestore.admin;

import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import javax.sql.DataSource;

/**
 * The admin port's tasks, on either role's admin port: each recorded in the audit trail before it runs
 * ({@link TaskAudit}), and log-level kept from raising the loggers that print credentials or bodies
 * ({@link LogLevelGuard}). Installed after the admin port's authentication, so that the record knows who asked.
 */
public final class AdminTasks {

    private AdminTasks() {
    }

    public static void install(Environment environment, DataSource postgres) {
        var admin = environment.admin();
        admin.addFilter("task-audit", new TaskAudit(postgres, environment.metrics()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/tasks/*");
        admin.addFilter("log-level-guard", new LogLevelGuard())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/tasks/*");
    }
}
