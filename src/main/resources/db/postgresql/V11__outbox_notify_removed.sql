-- V10's notification is taken out again. A transaction that sends a notification holds one lock for the whole server
-- from just before its commit until its end, so every change's commit (with synchronous replication, a round trip to
-- a standby) waited its turn behind the others'. The pod that records a change now wakes its own relay in process.
DROP TRIGGER IF EXISTS outbox_recorded ON outbox;
DROP FUNCTION IF EXISTS outbox_notify();
