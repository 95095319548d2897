package io.profilestore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Every profile row is written with its user's link to it, once (ProfileDao.withOwnLinks). */
class OwnLinksTest {

    private static ProfileRow row(UUID uid) {
        return new ProfileRow(UUID.randomUUID(), uid, uid, 2, "{}", Instant.EPOCH, Instant.EPOCH, 1);
    }

    @Test
    void aRowAloneGetsItsOwnLinkAfterIt() {
        var row = row(UUID.randomUUID());

        var writes = ProfileDao.withOwnLinks(List.of(new RowWrite.PutProfile(row)));

        assertThat(writes).containsExactly(new RowWrite.PutProfile(row), new RowWrite.OwnLink(row));
    }

    @Test
    void aRowWhoseLinkIsWrittenAlreadyGetsNoOtherAndEveryRowItsOwn() {
        var moved = row(UUID.randomUUID());
        var other = row(UUID.randomUUID());
        var from = UUID.randomUUID();
        var move = List.<RowWrite>of(new RowWrite.PutProfile(moved), new RowWrite.UnlinkProfile(from, moved.pid()),
                new RowWrite.LinkProfile(moved.uid(), moved.pid()), new RowWrite.PutProfile(other));

        var writes = ProfileDao.withOwnLinks(move);

        assertThat(writes).hasSize(5).endsWith(new RowWrite.OwnLink(other))
                .filteredOn(RowWrite.OwnLink.class::isInstance).hasSize(1);
    }
}
