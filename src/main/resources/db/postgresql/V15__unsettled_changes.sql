-- A change of several profiles at once (a batch update), from the moment it is recorded until Cassandra confirmed
-- it. Its writer may still land it after losing its lease (a frozen process; a write Cassandra did not confirm,
-- replayed from a batchlog later), and fences alone would let it stand on the profiles no newer write touched and
-- not on the others. Whoever next locks one of its profiles settles it whole first (UnsettledBatches): a row lives
-- for the length of one change, and is left behind only by a writer that died, froze or got no confirmation.
-- revoked_fence: a settler is writing its rows again as they stood, at this fence (they all show it once done);
-- partial_since: when it was first found landed in part.
CREATE TABLE IF NOT EXISTS unsettled_change (
    holder        uuid        PRIMARY KEY,
    pids          uuid[]      NOT NULL,
    fence         bigint      NOT NULL,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    revoked_fence bigint,
    partial_since timestamptz
);
