package io.profilestore.tablecheck;

import io.dropwizard.servlets.tasks.Task;
import io.profilestore.change.OneAtATime;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /tasks/check-tables} on the admin port: the check-tables command from a running instance;
 * {@code ?dryRun=true} only reports, {@code ?list=true} names each disagreement by its ids.
 */
public class TableCheckTask extends Task {

    private final TableCheck check;
    private final OneAtATime oneAtATime;

    public TableCheckTask(TableCheck check, OneAtATime oneAtATime) {
        super(TableCheck.JOB);
        this.check = check;
        this.oneAtATime = oneAtATime;
    }

    @Override
    public void execute(Map<String, List<String>> parameters, PrintWriter output) {
        boolean dryRun = parameters.getOrDefault("dryRun", List.of("false")).contains("true");
        boolean list = parameters.getOrDefault("list", List.of("false")).contains("true");
        if (!oneAtATime.ifFree(TableCheck.JOB, () -> check.run(!dryRun, list, output))) {
            output.println("check-tables runs on another instance right now; run it again once that one is done");
        }
    }
}
