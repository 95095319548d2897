package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.backends.Backends;
import io.profilestore.change.WritePathProbe;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.tablecheck.TableCheck;
import io.profilestore.tablecheck.TableCheckReport;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code check-tables <config>}: checks that {@code uid_pid} and {@code persons} agree with the profile rows and the
 * merge journal, and repairs what does not (unless --dry-run; --list names each disagreement). Exits 1 when it
 * found disagreements it did not repair.
 */
public class CheckTablesCommand extends BackendsCommand {

    public CheckTablesCommand() {
        super("check-tables", "Checks that users' lists of profiles agree with the profiles, and repairs them",
                new Switch("--dry-run", "dryRun", "report the disagreements without repairing them"),
                new Switch("--list", "list", "name each disagreement by its ids (no personal data)"));
    }

    /** @return false when the tables still disagree, or when another instance holds the check */
    @Override
    protected boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) {
        var wiring = wiring(config, backends, metrics);
        var changes = wiring.changes(WritePathProbe.NONE, () -> { });
        var check = wiring.tableCheck(changes, wiring.userService(changes));
        var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        boolean repair = !namespace.getBoolean("dryRun");
        boolean list = namespace.getBoolean("list");
        var reports = new ArrayList<TableCheckReport>();
        if (!wiring.oneAtATime().ifFree(TableCheck.JOB, () -> reports.add(check.run(repair, list, out)))) {
            out.println("check-tables, or an import, runs right now; run it again once that one is done");
            return false;
        }
        return reports.get(0).unrepaired() == 0;
    }
}
