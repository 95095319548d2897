package io.profilestore.twins;

import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.Lease;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransaction;
import io.profilestore.change.UnsettledChanges;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The lock table and the outbox in memory, for unit tests of the write path: all the entities or none, a taken one
 * refused at once, fences that only grow and exceed every earlier holder's. A change's journal (its audit record,
 * a merge's journal, what completes a change) needs PostgreSQL's transaction and is not run: no change is ever left to
 * complete here.
 */
public final class InMemoryLockTable implements LockTable, UnsettledChanges {

    private final Map<String, UUID> holders = new HashMap<>();
    private final Map<String, Long> fences = new HashMap<>();
    private long clockMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());

    @Override
    public Duration lease() {
        return Duration.ofSeconds(30);
    }

    @Override
    public Lease acquire(Collection<String> wanted) {
        return acquireMore(new Lease(UUID.randomUUID(), List.of(), 0, System.nanoTime()), wanted);
    }

    /** Nothing new to lock leaves the lease as it is; otherwise every entity it then holds shares a new fence. */
    @Override
    public Lease acquireMore(Lease held, Collection<String> wanted) {
        var entities = new TreeSet<>(held.entities());
        if (!entities.addAll(wanted)) {
            return held;
        }
        var taken = wanted.stream().filter(entity -> !held.entities().contains(entity) && holders.containsKey(entity))
                .distinct().sorted().toList();
        if (!taken.isEmpty()) {
            throw new EntitiesLockedException(taken);
        }
        long fence = ++clockMicros;
        for (var entity : entities) {
            fence = Math.max(fence, fences.getOrDefault(entity, 0L) + 1);
        }
        for (var entity : entities) {
            holders.put(entity, held.holder());
            fences.put(entity, fence);
        }
        return new Lease(held.holder(), List.copyOf(entities), fence, held.acquiredNanos());
    }

    @Override
    public Lease raiseFence(Lease held, long floor) {
        if (held.fence() >= floor) {
            return held;
        }
        mustHold(held);
        held.entities().forEach(entity -> fences.put(entity, floor));
        return new Lease(held.holder(), held.entities(), floor, held.acquiredNanos());
    }

    @Override
    public void renew(RecordTransaction transaction, Lease held) {
        mustHold(held);
    }

    @Override
    public Release release(Lease held) {
        if (!ours(held)) {
            return Release.NOT_OURS;
        }
        held.entities().forEach(holders::remove);
        return Release.RELEASED;
    }

    @Override
    public Optional<Unsettled> of(UUID holder) {
        return Optional.empty();
    }

    @Override
    public void foundInPart(UUID holder) {
        // of() finds no unsettled batch, so the core never gets here: a test that does has found a defect
        throw new AssertionError("no batch is left unsettled in memory");
    }

    @Override
    public void revoke(RecordTransaction transaction, UUID holder, long fence) {
        // of() finds no unsettled batch, so the core never gets here: a test that does has found a defect
        throw new AssertionError("no batch is left unsettled in memory");
    }

    @Override
    public void keep(RecordTransaction transaction, Lease held, Completion completion) {
        // nothing is kept: no write of the twins' goes unconfirmed unless a test makes it, and then the test settles it
    }

    @Override
    public List<List<UUID>> leftBehind(Duration age, int limit) {
        return List.of();
    }

    @Override
    public Release releaseLeavingItToComplete(Lease held) {
        return release(held);
    }

    @Override
    public Release forget(Lease held) {
        return release(held);
    }

    @Override
    public void settled(UUID holder) {
        // of() finds no change to complete, so the core never gets here: a test that does has found a defect
        throw new AssertionError("no change is left to complete in memory");
    }

    /** Another request holds the entity. */
    public void heldByAnother(String entity) {
        holders.put(entity, UUID.randomUUID());
    }

    /** The lease of the holder of these entities runs out and another request takes them. */
    public void takenOver(Lease held) {
        held.entities().forEach(this::heldByAnother);
    }

    public boolean isFree(String entity) {
        return !holders.containsKey(entity);
    }

    private void mustHold(Lease held) {
        if (!ours(held)) {
            throw new LeaseLostException("the locks ran out before the change was recorded", false);
        }
    }

    /** Whether the holder still holds every lock of the lease. */
    public boolean holds(Lease held) {
        return ours(held);
    }

    private boolean ours(Lease held) {
        return held.entities().stream().allMatch(entity -> held.holder().equals(holders.get(entity)));
    }
}
