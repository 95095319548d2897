package io.profilestore.contracts;

import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.LookUpRecorder;
import io.profilestore.twins.InMemoryLookUps;
import java.util.List;

/** The contract of the look-ups' writer, held against the twin. */
class LookUpRecorderTest extends LookUpRecorderContract {

    private final InMemoryLookUps lookUps = new InMemoryLookUps();

    @Override
    LookUpRecorder recorder() {
        return lookUps;
    }

    @Override
    List<AuditEntry> recorded(String prefix) {
        return lookUps.recorded().stream().filter(entry -> entry.request().startsWith(prefix)).toList();
    }
}
