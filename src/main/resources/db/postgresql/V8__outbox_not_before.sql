-- A change whose write Cassandra did not confirm may still land later (a batchlog replay, hints, a read repair):
-- it is announced again after a while, by records the relay leaves until their time has come.
ALTER TABLE outbox ADD COLUMN not_before timestamptz;
