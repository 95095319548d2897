-- The lock table that guards every edit, and the outbox that records every change for the indexer.

-- One row per entity ever locked: 'profile:<pid>' or 'user:<uid>'. A row is free when holder is null or its lease
-- has run out, so a crashed holder blocks nobody for longer than its lease. fence only ever grows: the holder
-- writes to Cassandra USING TIMESTAMP fence, so a holder that lost its lease while paused loses last-write-wins.
CREATE TABLE entity_lock (
    entity      text        PRIMARY KEY,
    holder      uuid,
    lease_until timestamptz,
    fence       bigint      NOT NULL
);

-- Change records, written before the Cassandra write they announce and relayed to RabbitMQ in id order.
-- They carry keys and the version, never the document: the indexer re-reads Cassandra.
CREATE TABLE outbox (
    id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entity_type  text        NOT NULL,
    entity_id    uuid        NOT NULL,
    version      bigint,
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);

CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;
