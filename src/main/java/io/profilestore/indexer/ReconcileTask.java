package io.profilestore.indexer;

import io.dropwizard.servlets.tasks.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /tasks/reconcile} on the admin port: the reconcile command from a running instance;
 * {@code ?dryRun=true} only reports.
 */
public class ReconcileTask extends Task {

    private final Reconciler reconciler;

    public ReconcileTask(Reconciler reconciler) {
        super("reconcile");
        this.reconciler = reconciler;
    }

    @Override
    public void execute(Map<String, List<String>> parameters, PrintWriter output) throws Exception {
        boolean dryRun = parameters.getOrDefault("dryRun", List.of("false")).contains("true");
        reconciler.run(output, !dryRun);
    }
}
