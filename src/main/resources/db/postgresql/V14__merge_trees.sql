-- Merges form a forest (README, "Users"). What each merge and unmerge moved: for an unmerge too now, so that the
-- journal shows every profile's way between users. Per profile: its own user (home) when it moved, where it went,
-- and the version the operation gave it. Each statement can run again over its own work (IF NOT EXISTS): a migrate
-- killed in V12 (its index is built concurrently, outside a transaction) leaves V12 and all later unrecorded.
ALTER TABLE merge_move ADD COLUMN IF NOT EXISTS home_uid uuid;
ALTER TABLE merge_move ADD COLUMN IF NOT EXISTS to_uid uuid;
ALTER TABLE merge_move ADD COLUMN IF NOT EXISTS version bigint;

-- The users ever merged into a user: an operation on a tree finds the members of the tree from these (and reads
-- each one's row to see where it stands now).
CREATE INDEX IF NOT EXISTS user_operation_merge_target ON user_operation (target_uid) WHERE kind = 'merge';

-- Which merges took a user in (check-tables compares each merged user's parent with the journal's).
CREATE INDEX IF NOT EXISTS user_operation_sources ON user_operation USING gin (source_uids);
