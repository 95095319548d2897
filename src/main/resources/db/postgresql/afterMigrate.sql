-- After every migrate (a Flyway callback), when migrate runs as an owner of its own (postgres.migrationUser):
-- the service's role gets what it needs and no more. It reads and writes the lock table, the outbox, the journals
-- and the reindex progress; it may only append to and read the audit trail, never update, delete or truncate it;
-- it may read the migration history but not write it. The owner keeps everything, as owners do.
DO $$
BEGIN
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
    END IF;
END
$$;
