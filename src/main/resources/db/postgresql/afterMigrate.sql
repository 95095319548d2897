-- After every migrate (a Flyway callback), when migrate runs as an owner of its own (postgres.migrationUser):
-- the service's role gets what it needs and no more. It reads and writes the lock table, the outbox, the journals
-- and the reindex progress; it may only append to and read the audit trail, never update, delete or truncate it;
-- it may read the migration history but not write it. The owner keeps everything, as owners do.
-- The audit trail's retention is written on every migrate, from audit.retention; the service's role may only ask
-- purge_expired_audit to remove what is older.
INSERT INTO audit_retention (only_row, keep) VALUES (true, interval '${auditRetentionDays} days')
    ON CONFLICT (only_row) DO UPDATE SET keep = EXCLUDED.keep;
DO $$
BEGIN
    -- a function of the owner's rights finds the tables of this schema alone, and no object another role made
    EXECUTE format('ALTER FUNCTION purge_expired_audit(int) SET search_path = %I, pg_temp', current_schema());
    EXECUTE 'REVOKE EXECUTE ON FUNCTION purge_expired_audit(int) FROM PUBLIC';
    IF current_user <> '${serviceRole}' THEN
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), '${serviceRole}');
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO %I', current_schema(), '${serviceRole}');
        EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO %I', current_schema(), '${serviceRole}');
        EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_record, audit_outcome FROM %I', '${serviceRole}');
        -- appended with the database's own id and time only: no backdated record, no chosen id
        EXECUTE format('GRANT INSERT (actor, actor_kind, roles, action, request, pids, status, request_id) ON audit_record TO %I', '${serviceRole}');
        EXECUTE format('GRANT INSERT (record_id, status) ON audit_outcome TO %I', '${serviceRole}');
        -- no objects of its own in the schema
        EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM %I', current_schema(), '${serviceRole}');
        EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON flyway_schema_history FROM %I', '${serviceRole}');
        EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_retention FROM %I', '${serviceRole}');
        EXECUTE format('GRANT EXECUTE ON FUNCTION purge_expired_audit(int) TO %I', '${serviceRole}');
    END IF;
END
$$;
