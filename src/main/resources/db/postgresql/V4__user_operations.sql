-- Merges and unmerges of users: what a merge moved, so that an unmerge restores exactly that, and where each
-- operation stands, so that one a crash interrupted is completed (see README, "Users").
CREATE TABLE user_operation (
    op_id       uuid        PRIMARY KEY,
    kind        text        NOT NULL CHECK (kind IN ('merge', 'unmerge')),
    target_uid  uuid        NOT NULL,
    source_uids uuid[]      NOT NULL,
    merge_id    uuid,
    state       text        NOT NULL CHECK (state IN ('pending', 'applied', 'abandoned')),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);

CREATE INDEX user_operation_pending ON user_operation (recorded_at) WHERE state = 'pending';

-- The profiles a merge moved, and from which user.
CREATE TABLE merge_move (
    merge_id uuid NOT NULL REFERENCES user_operation (op_id),
    pid      uuid NOT NULL,
    from_uid uuid NOT NULL,
    PRIMARY KEY (merge_id, pid)
);

CREATE INDEX merge_move_from ON merge_move (from_uid);

-- Which source of which merge an unmerge undid.
CREATE TABLE merge_undo (
    merge_id   uuid NOT NULL REFERENCES user_operation (op_id),
    source_uid uuid NOT NULL,
    unmerge_id uuid NOT NULL REFERENCES user_operation (op_id),
    PRIMARY KEY (merge_id, source_uid)
);
