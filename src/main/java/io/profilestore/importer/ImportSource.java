package io.profilestore.importer;

import java.util.Iterator;

/** Where an import reads its records: each as the text of one NDJSON record, numbered from 1 in the source's order. */
public interface ImportSource extends AutoCloseable {

    /** One record as read, before it is checked; its text null when the line is not UTF-8. */
    record Raw(long position, String text) {
    }

    /** What a checkpoint keeps of the source, so that an import is never resumed on another one. */
    String identity() throws Exception;

    /** How many records it holds (for the progress bar), or -1 when it cannot tell. */
    long count() throws Exception;

    /** Its records after {@code position} (0: from the first), in order. */
    Iterator<Raw> after(long position) throws Exception;

    @Override
    void close() throws Exception;
}
