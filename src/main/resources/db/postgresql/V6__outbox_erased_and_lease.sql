-- What the indexer needs to tell a change whose Cassandra write has not landed yet from one that is done:
-- whether the change erases the profile (then the row is gone once it landed), and until when its writer's lease
-- lasts (after that the write has failed, landed or been superseded: the indexer indexes what Cassandra holds).
ALTER TABLE outbox ADD COLUMN erased boolean NOT NULL DEFAULT false;
ALTER TABLE outbox ADD COLUMN lease_until timestamptz;
