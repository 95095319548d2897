package io.profilestore.contracts;

import io.profilestore.change.ProfileRows;
import io.profilestore.twins.InMemoryProfileRows;

/** The contract of the rows of profiles and users, held against the twin. */
class ProfileRowsTest extends ProfileRowsContract {

    private final InMemoryProfileRows rows = new InMemoryProfileRows();

    @Override
    ProfileRows rows() {
        return rows;
    }
}
