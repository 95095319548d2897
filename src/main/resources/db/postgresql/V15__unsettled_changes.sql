-- A change of several profiles at once (a batch update), from the moment it is recorded until Cassandra confirmed
-- it. Its writer may still land it after losing its lease (a frozen process; a write Cassandra did not confirm,
-- replayed from a batchlog later), and fences alone would let it stand on the profiles no newer write touched and
-- not on the others. Whoever takes over one of its locks first settles it whole (ChangeRunner): a row lives for the
-- length of one change, and is left behind only by a writer that died, froze or got no confirmation.
CREATE TABLE IF NOT EXISTS unsettled_change (
    holder      uuid        PRIMARY KEY,
    pids        uuid[]      NOT NULL,
    fence       bigint      NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);
