package io.profilestore.core;

import io.dropwizard.servlets.tasks.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /tasks/check-tables} on the admin port: the check-tables command from a running instance;
 * {@code ?dryRun=true} only reports.
 */
public class TableCheckTask extends Task {

    private final TableCheck check;

    public TableCheckTask(TableCheck check) {
        super("check-tables");
        this.check = check;
    }

    @Override
    public void execute(Map<String, List<String>> parameters, PrintWriter output) {
        boolean dryRun = parameters.getOrDefault("dryRun", List.of("false")).contains("true");
        check.run(!dryRun, output);
    }
}
