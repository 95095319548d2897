package io.profilestore.twins;

import io.profilestore.change.RecordTransaction;
import java.util.ArrayList;
import java.util.List;

/** A transaction of the twins: what the ports write in it takes effect at its commit, and not at all without one. */
public final class InMemoryTransaction implements RecordTransaction {

    private final List<Runnable> atCommit = new ArrayList<>();

    /** Adds what a port writes in the transaction. */
    static void write(RecordTransaction transaction, Runnable write) {
        ((InMemoryTransaction) transaction).atCommit.add(write);
    }

    void commit() {
        atCommit.forEach(Runnable::run);
    }
}
