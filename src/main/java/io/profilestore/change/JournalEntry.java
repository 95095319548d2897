package io.profilestore.change;

/**
 * What a merge or an unmerge writes to its journal ({@link UserJournal}) in the transaction that records
 * it: the recovery completes from the journal an operation whose write was not confirmed.
 */
@FunctionalInterface
public interface JournalEntry {

    JournalEntry NONE = transaction -> {
    };

    void write(RecordTransaction transaction);
}
