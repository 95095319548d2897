-- A change is recorded in the audit trail in the transaction that records it, before Cassandra is written: its
-- outcome is not known then. Its status stays empty until the caller has been answered, and is the status of that
-- answer; it stays empty for good when the instance died before answering (the outcome is unknown).
ALTER TABLE audit_record ALTER COLUMN status DROP NOT NULL;
