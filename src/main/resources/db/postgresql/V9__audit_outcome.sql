-- The audit trail is append-only for the service (afterMigrate.sql grants it INSERT and SELECT only): a change's
-- outcome, known once its caller is answered, is appended here rather than written into its record. One outcome
-- per record; a record without one has an unknown outcome (the instance died before answering). Records written
-- before this version keep the status they were given in audit_record.status.
CREATE TABLE audit_outcome (
    record_id bigint      PRIMARY KEY REFERENCES audit_record (id),
    status    int         NOT NULL,
    at        timestamptz NOT NULL DEFAULT clock_timestamp()
);
