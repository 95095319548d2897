-- Every lock taken asks unsettled_change which earlier holders left a batch that may still land on its profiles
-- (UnsettledChanges.holdersOf: pids && the profiles locked). Read row by row, that grows with the rows left behind;
-- this index answers && on uuid[] without the table. fastupdate off: the table is written and emptied by every batch
-- update, and a pending list of entries, read through by every lookup, would grow the same way. The table holds
-- a few rows (the sweep settles those left behind), so the index is built in the migration's transaction: writes
-- of the table wait for as long as that takes.
CREATE INDEX IF NOT EXISTS unsettled_change_pids ON unsettled_change USING gin (pids) WITH (fastupdate = off);
