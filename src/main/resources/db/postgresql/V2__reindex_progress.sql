-- Which slices of the Cassandra token ring a reindex has copied into its new index: a reindex that stopped
-- (crash, Ctrl-C) goes on from here instead of starting over.
CREATE TABLE reindex_progress (
    target_index text        NOT NULL,
    slice        int         NOT NULL,
    profiles     bigint      NOT NULL,
    done_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (target_index, slice)
);
