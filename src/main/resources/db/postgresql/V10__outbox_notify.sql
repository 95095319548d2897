-- Wakes the relay when changes are recorded: one notification per statement that inserts outbox rows, sent when its
-- transaction commits (never for one rolled back), on the channel outbox_recorded. The payload is empty: a
-- notification says only that there is something to relay, never what (no ids, no personal data); the relay reads
-- the rows as it always did. It keeps polling as well, for notifications missed while it was not listening and for
-- records left for later (not_before).
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox_recorded', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_recorded AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
