-- Which request a change, or a merge's journal, belongs to (issue 38): the id the rows it writes in Cassandra carry
-- (written_by). For a request, its Request-Id; for the system's own changes, an id of their own. Null in records
-- written before this column.
ALTER TABLE audit_record ADD COLUMN IF NOT EXISTS request_id uuid;
ALTER TABLE user_operation ADD COLUMN IF NOT EXISTS request_id uuid;
