-- How long the audit trail is kept (issue 42): audit.retention, which every migrate writes here as the trail's owner
-- (afterMigrate.sql). The service's role may read it but not change it, and cannot delete a record itself: it asks
-- purge_expired_audit, which removes only what is older than this, a batch at a time.
CREATE TABLE IF NOT EXISTS audit_retention (
    only_row boolean  PRIMARY KEY DEFAULT true CHECK (only_row),
    keep     interval NOT NULL CHECK (keep >= interval '30 days')
);

-- Runs with its owner's rights (SECURITY DEFINER): the records, and their outcomes, older than the retention, the
-- oldest first, at most batch of them; returns how many went. Records locked by another sweep are left to it.
CREATE OR REPLACE FUNCTION purge_expired_audit(batch int) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    cutoff  timestamptz;
    removed bigint;
BEGIN
    SELECT now() - keep INTO cutoff FROM audit_retention;
    IF cutoff IS NULL OR batch < 1 THEN
        RETURN 0;
    END IF;
    WITH doomed AS (
        SELECT id FROM audit_record WHERE at < cutoff ORDER BY at LIMIT batch FOR UPDATE SKIP LOCKED
    ), outcomes AS (
        DELETE FROM audit_outcome WHERE record_id IN (SELECT id FROM doomed)
    )
    DELETE FROM audit_record WHERE id IN (SELECT id FROM doomed);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;
