package io.profilestore.change;


/**
 * Called at the steps of every change. Production does nothing here; the concurrency tests hold a request at a
 * step (a paused writer, a crash between two steps) to prove what happens then.
 */
public interface WritePathProbe {

    WritePathProbe NONE = new WritePathProbe() {
    };

    /** The locks are held; nothing has been read yet. */
    default void locked(Lease lease) {
    }

    /** The change's records are written in PostgreSQL's transaction, not committed yet. */
    default void committing(Lease lease) {
    }

    /** The change is recorded in the outbox; Cassandra has not been written yet. */
    default void recorded(Lease lease) {
    }

    /** Cassandra confirmed the write; the locks are not released yet. */
    default void written(Lease lease) {
    }
}
