-- The audit trail: who looked at or changed which profiles, when, and what they asked. Written before the answer
-- leaves (a look-up whose record cannot be written fails), in the transaction of the change for changes.
CREATE TABLE audit_record (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor      text        NOT NULL,
    actor_kind text        NOT NULL,
    roles      text[]      NOT NULL,
    action     text        NOT NULL,
    request    text        NOT NULL,
    pids       uuid[]      NOT NULL,
    status     int         NOT NULL
);

CREATE INDEX audit_record_actor ON audit_record (actor, at);
CREATE INDEX audit_record_at ON audit_record (at);
CREATE INDEX audit_record_pids ON audit_record USING gin (pids);
