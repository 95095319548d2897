-- The fence (Cassandra write timestamp) of each recorded change: the indexer removes an erased profile from the
-- index with it as external version, so no copy of the profile read before the erase can come back after it.
ALTER TABLE outbox ADD COLUMN fence bigint;
