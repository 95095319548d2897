package io.profilestore.contracts;

import io.profilestore.change.ProfileRows;
import io.profilestore.change.VersionRows;
import io.profilestore.twins.InMemoryProfileRows;

/** The contract of the history of profiles, held against the twin. */
class VersionRowsTest extends VersionRowsContract {

    private final InMemoryProfileRows rows = new InMemoryProfileRows();

    @Override
    ProfileRows rows() {
        return rows;
    }

    @Override
    VersionRows versions() {
        return rows;
    }
}
