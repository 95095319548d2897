-- Every change of profiles (not a merge or an unmerge: their journal has a recovery of its own) keeps in its
-- unsettled_change row, from its record until Cassandra confirmed it, what it writes: the rows (writes), the records
-- for the indexer (records) and the id its rows carry (writer). A change that may still land is completed by the
-- next holder of one of its locks: written again as it recorded it, above every fence, before anything is read
-- (UnsettledBatches). A row without them was left by a version before this one, and is settled as before.
ALTER TABLE unsettled_change ADD COLUMN IF NOT EXISTS writes jsonb;
ALTER TABLE unsettled_change ADD COLUMN IF NOT EXISTS records jsonb;
ALTER TABLE unsettled_change ADD COLUMN IF NOT EXISTS writer uuid;
