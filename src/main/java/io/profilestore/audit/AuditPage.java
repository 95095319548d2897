package io.profilestore.audit;

import java.util.List;
import java.util.UUID;

/**
 * A page of the audit trail, as {@code GET /v1/audit} answers it; {@code before}, the id to ask the next page
 * before, is null on the last page.
 */
public record AuditPage(List<AuditEntry> records, Long before) {

    public AuditPage {
        records = List.copyOf(records);
    }

    /**
     * The profiles the page shows, each once, in the order first shown: what a record of reading the trail names, so
     * that asking the trail of a person shows who has read it before.
     */
    public List<UUID> shown() {
        return records.stream().flatMap(record -> record.pids().stream()).distinct().toList();
    }
}
