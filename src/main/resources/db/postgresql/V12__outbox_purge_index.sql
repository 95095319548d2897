-- The purge of published rows past their retention (every API pod, every 5 s) read the whole outbox each time, due
-- rows or not: a day of changes, a million rows after an import, 200-500 ms of PostgreSQL amid the changes' own
-- transactions. This index finds the due rows alone. Built without blocking the writes that go on meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL;
