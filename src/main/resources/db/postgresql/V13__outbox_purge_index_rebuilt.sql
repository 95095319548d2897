-- V12's index built again. A concurrent build that is interrupted (the migrate Job killed at its deadline, say)
-- leaves its index behind INVALID: never used, yet kept up to date by every write. Flyway records a migration only
-- once it succeeded, so the next migrate runs it again, and V12's IF NOT EXISTS then found the invalid index and
-- stopped there. This one drops whatever stands under that name and builds it; interrupted, it is run again whole.
DROP INDEX CONCURRENTLY IF EXISTS outbox_published_at;
CREATE INDEX CONCURRENTLY outbox_published_at ON outbox (published_at) WHERE published_at IS NOT NULL;
