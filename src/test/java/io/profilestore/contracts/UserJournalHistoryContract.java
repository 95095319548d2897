package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserJournalHistory.Edge;
import io.profilestore.change.UserJournalHistory.Recorded;
import io.profilestore.change.UserJournalHistory.Undone;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the console's merge history and check-tables rely on in the merge journal read as history
 * ({@link UserJournalHistory}), written through {@link UserJournal}, held alike against the twin
 * ({@code UserJournalHistoryTest}) and PostgreSQL ({@code UserJournalHistoryIT}): a user's merges newest first with
 * their moves and unmerges, the parents and edges of applied merges less their unmerges, and the users an interrupted
 * operation waits on. Every case uses fresh users; of {@link UserJournalHistory#activeEdges}, which walks the whole
 * journal, it looks only at its own.
 */
abstract class UserJournalHistoryContract {

    abstract UserJournal journal();

    abstract UserJournalHistory history();

    abstract RecordTransactions transactions();

    final UUID request = UUID.randomUUID();

    @Test
    void historyListsAUsersMergesNewestFirstWithTheirMovesAndUnmerges() {
        UUID target = UUID.randomUUID();
        UUID s1 = UUID.randomUUID();
        UUID s2 = UUID.randomUUID();
        UUID s3 = UUID.randomUUID();
        UUID pid = UUID.randomUUID();
        var before = Instant.now();
        var moved = new Move(pid, s1, s1, target, 2);
        var first = merge(target, s1);
        recordMerge(first, List.of(moved));
        journal().finish(first.opId(), true);
        var abandoned = merge(target, s3);
        recordMerge(abandoned, List.of());
        journal().finish(abandoned.opId(), false);
        var back = new Move(pid, target, s1, s1, 3);
        var unmerge = new Operation(UUID.randomUUID(), Kind.UNMERGE, target, List.of(s1), first.opId());
        transactions().inOne(journal().recordUnmerge(unmerge, List.of(back), request)::write);
        journal().finish(unmerge.opId(), true);
        var second = merge(target, s2);
        recordMerge(second, List.of());

        var merges = history().history(List.of(target), 10);

        assertThat(merges).extracting(Recorded::opId).as("merges only, abandoned aside, newest first")
                .containsExactly(second.opId(), first.opId());
        var newest = merges.get(0);
        var oldest = merges.get(1);
        assertThat(newest.state()).isEqualTo("pending");
        assertThat(newest.undone()).isEmpty();
        assertThat(oldest).extracting(Recorded::target, Recorded::sources, Recorded::state, Recorded::moves)
                .containsExactly(target, List.of(s1), "applied", List.of(moved));
        assertThat(oldest.undone()).singleElement().satisfies(undone -> {
            assertThat(undone).extracting(Undone::source, Undone::unmergeId, Undone::state, Undone::moves)
                    .containsExactly(s1, unmerge.opId(), "applied", List.of(back));
            assertThat(undone.recordedAt()).isAfterOrEqualTo(oldest.recordedAt());
        });
        assertThat(newest.recordedAt()).isAfterOrEqualTo(oldest.recordedAt());
        assertThat(Duration.between(before, oldest.recordedAt()).abs()).as("recorded now").isLessThan(Duration.ofMinutes(1));
        assertThat(history().history(List.of(target), 1)).extracting(Recorded::opId).containsExactly(second.opId());
        assertThat(history().history(List.of(UUID.randomUUID(), s1), 10)).extracting(Recorded::opId)
                .containsExactly(first.opId());
        assertThat(history().history(List.of(s3), 10)).isEmpty();
    }

    @Test
    void anUnmergeOfSeveralSourcesShowsUnderEachWhatWentBackToIt() {
        UUID target = UUID.randomUUID();
        UUID s1 = UUID.randomUUID();
        UUID s2 = UUID.randomUUID();
        var toS1 = new Move(UUID.randomUUID(), target, s1, s1, 4);
        var toS2 = new Move(UUID.randomUUID(), target, s2, s2, 6);
        var merge = merge(target, s1, s2);
        recordMerge(merge, List.of());
        journal().finish(merge.opId(), true);
        var unmerge = new Operation(UUID.randomUUID(), Kind.UNMERGE, target, List.of(s1, s2), merge.opId());

        transactions().inOne(journal().recordUnmerge(unmerge, List.of(toS1, toS2), request)::write);

        assertThat(history().history(List.of(target), 10)).singleElement().satisfies(recorded -> assertThat(
                recorded.undone()).extracting(Undone::source, Undone::state, Undone::moves).containsExactlyInAnyOrder(
                        tuple(s1, "pending", List.of(toS1)),
                        tuple(s2, "pending", List.of(toS2))));
    }

    @Test
    void parentsAndEdgesAreTheAppliedMergesLessTheirUnmergesPendingOrApplied() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID d = UUID.randomUUID();
        UUID e = UUID.randomUUID();
        UUID g = UUID.randomUUID();
        applied(merge(a, b, e));
        recordMerge(merge(a, c), List.of());
        var intoD = applied(merge(a, d));
        transactions().inOne(journal().recordUnmerge(
                new Operation(UUID.randomUUID(), Kind.UNMERGE, a, List.of(d), intoD.opId()), List.of(), request)::write);
        applied(merge(b, g));
        var ours = List.of(a, b, c, d, e, g);

        assertThat(history().parentsInJournal(List.of(b, c, d, e, g, UUID.randomUUID())))
                .isEqualTo(Map.of(b, a, e, a, g, b));
        assertThat(history().parentsInJournal(List.of(a))).isEmpty();

        var edges = new ArrayList<Edge>();
        var sizes = new ArrayList<Integer>();
        history().activeEdges(2, batch -> {
            sizes.add(batch.size());
            batch.stream().filter(edge -> ours.contains(edge.source())).forEach(edges::add);
        });
        assertThat(sizes).allSatisfy(size -> assertThat(size).isBetween(1, 2));
        assertThat(edges).containsExactlyInAnyOrder(new Edge(b, a), new Edge(e, a), new Edge(g, b));
    }

    @Test
    void pendingUsersAreTheUsersOfOperationsStillPending() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID d = UUID.randomUUID();
        UUID e = UUID.randomUUID();
        UUID f = UUID.randomUUID();
        UUID g = UUID.randomUUID();
        recordMerge(merge(a, b, g), List.of());
        applied(merge(c, d));
        var abandoned = merge(e, f);
        recordMerge(abandoned, List.of());
        journal().finish(abandoned.opId(), false);

        assertThat(history().pendingUsers(List.of(a, b, c, d, e, f, UUID.randomUUID()))).containsExactlyInAnyOrder(a, b);
        assertThat(history().pendingUsers(List.of(g))).containsExactly(g);
        assertThat(history().pendingUsers(List.of(c, f))).isEmpty();
    }

    @Test
    void aProfilesVersionNamesTheMergeOrUnmergeThatGaveItWithEverythingItMoved() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        UUID pid = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        var merge = merge(target, source);
        var moves = List.of(new Move(pid, source, source, target, 4), new Move(other, source, source, target, 2));
        recordMerge(merge, moves);
        journal().finish(merge.opId(), true);
        var unmerge = new Operation(UUID.randomUUID(), Kind.UNMERGE, target, List.of(source), merge.opId());
        transactions().inOne(journal().recordUnmerge(unmerge, List.of(new Move(pid, target, source, source, 5)),
                request)::write);
        var abandoned = merge(target, UUID.randomUUID());
        recordMerge(abandoned, List.of(new Move(pid, source, source, target, 6)));
        journal().finish(abandoned.opId(), false);

        assertThat(history().movedBy(pid, 4)).get().satisfies(moving -> {
            assertThat(moving.opId()).isEqualTo(merge.opId());
            assertThat(moving.kind()).isEqualTo(Kind.MERGE);
            assertThat(moving.target()).isEqualTo(target);
            assertThat(moving.sources()).containsExactly(source);
            assertThat(moving.moves()).extracting(Move::pid, Move::version)
                    .containsExactlyInAnyOrder(tuple(pid, 4L), tuple(other, 2L));
        });
        assertThat(history().movedBy(pid, 5)).get().extracting(UserJournalHistory.Moving::kind).isEqualTo(Kind.UNMERGE);
        assertThat(history().movedBy(pid, 6)).as("abandoned: it never moved anything").isEmpty();
        assertThat(history().movedBy(pid, 3)).isEmpty();
    }

    static Operation merge(UUID target, UUID... sources) {
        return new Operation(UUID.randomUUID(), Kind.MERGE, target, List.of(sources), null);
    }

    void recordMerge(Operation merge, List<Move> moves) {
        transactions().inOne(journal().recordMerge(merge, moves, request)::write);
    }

    Operation applied(Operation merge) {
        recordMerge(merge, List.of());
        assertThat(journal().finish(merge.opId(), true)).isTrue();
        return merge;
    }
}
