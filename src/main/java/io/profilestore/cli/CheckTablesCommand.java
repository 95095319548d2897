package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.audit.AuditLog;
import io.profilestore.backends.Backends;
import io.profilestore.core.ChangeRunner;
import io.profilestore.core.TableCheck;
import io.profilestore.core.TableCheckReport;
import io.profilestore.core.UserService;
import io.profilestore.core.WritePathProbe;
import io.profilestore.db.EntityLocks;
import io.profilestore.db.ExclusiveRun;
import io.profilestore.db.IdempotentWriter;
import io.profilestore.db.JournalHistory;
import io.profilestore.db.ProfileDao;
import io.profilestore.db.UserOperations;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
        var writer = new IdempotentWriter(backends.cassandra(), config.profiles.writeAttempts, metrics);
        var dao = new ProfileDao(backends.cassandra(), config.cassandra.keyspace, writer);
        var locks = new EntityLocks(backends.postgres(), config.profiles.lockLease.toJavaDuration(),
                metrics);
        var changes = new ChangeRunner(dao, locks, new AuditLog(backends.postgres()), List.of(), WritePathProbe.NONE);
        var journal = new UserOperations(backends.postgres());
        var users = new UserService(dao, changes, journal, config.users);
        var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        boolean repair = !namespace.getBoolean("dryRun");
        boolean list = namespace.getBoolean("list");
        var check = new TableCheck(dao, changes, users, new JournalHistory(backends.postgres()), config.users);
        var reports = new ArrayList<TableCheckReport>();
        if (!new ExclusiveRun(backends.postgres()).ifFree(TableCheck.JOB, () -> reports.add(check.run(repair, list, out)))) {
            out.println("check-tables, or an import, runs right now; run it again once that one is done");
            return false;
        }
        return reports.get(0).unrepaired() == 0;
    }
}
