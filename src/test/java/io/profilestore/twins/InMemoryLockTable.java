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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The lock table in memory, for unit tests of the write path: all the entities or none, a taken one refused at once,
 * fences that only grow and exceed every earlier holder's, and a lease that runs out when a test says so
 * ({@link #runOut}); {@code contracts.LockTableContract} holds it to PostgreSQL. What completes a change
 * ({@link UnsettledChanges}) is not kept: no change is ever left to complete here.
 */
public final class InMemoryLockTable implements LockTable, UnsettledChanges {

    private final Map<String, UUID> holders = new HashMap<>();
    private final Map<String, Long> fences = new HashMap<>();
    /** Entities whose holder's lease ran out ({@link #runOut}): free for others, still named for it. */
    private final Set<String> ranOut = new HashSet<>();
    private long clockMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());

    @Override
    public Duration lease() {
        return Duration.ofSeconds(30);
    }

    @Override
    public Lease acquire(Collection<String> wanted) {
        return acquireMore(new Lease(UUID.randomUUID(), List.of(), 0, System.nanoTime()), wanted);
    }

    /**
     * Nothing new to lock leaves the lease as it is; otherwise the new entities are taken, and they and every entity
     * still the holder's share a new fence. What the holder lost stays with whoever took it.
     */
    @Override
    public Lease acquireMore(Lease held, Collection<String> wanted) {
        var more = new TreeSet<>(wanted);
        more.removeAll(held.entities());
        if (more.isEmpty()) {
            return held;
        }
        var taken = more.stream().filter(entity -> !takeable(entity)).toList();
        if (!taken.isEmpty()) {
            throw new EntitiesLockedException(taken);
        }
        var named = held.entities().stream().filter(entity -> held.holder().equals(holders.get(entity))).toList();
        long fence = ++clockMicros;
        for (var entity : more) {
            fence = Math.max(fence, fences.getOrDefault(entity, 0L) + 1);
        }
        for (var entity : named) {
            fence = Math.max(fence, fences.get(entity) + 1);
        }
        for (var entity : more) {
            holders.put(entity, held.holder());
            ranOut.remove(entity);
            fences.put(entity, fence);
        }
        for (var entity : named) {
            fences.put(entity, fence);
        }
        var entities = new TreeSet<>(held.entities());
        entities.addAll(more);
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

    /** Frees what is still named for the holder (its lease run out or not); RELEASED if that was every lock. */
    @Override
    public Release release(Lease held) {
        var named = held.entities().stream().filter(entity -> held.holder().equals(holders.get(entity))).toList();
        named.forEach(entity -> {
            holders.remove(entity);
            ranOut.remove(entity);
        });
        return named.size() == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
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
        ranOut.remove(entity);
    }

    /**
     * These locks of the holder run out, as when it is slower than its lease: any other request may take them, the
     * holder can no longer renew them, and until another takes them they are still named for it.
     */
    public void runOut(Lease held) {
        held.entities().stream().filter(entity -> held.holder().equals(holders.get(entity))).forEach(ranOut::add);
    }

    /** The lease of the holder of these entities runs out and another request takes them. */
    public void takenOver(Lease held) {
        held.entities().forEach(this::heldByAnother);
    }

    public boolean isFree(String entity) {
        return !holders.containsKey(entity);
    }

    private void mustHold(Lease held) {
        if (!holds(held)) {
            throw new LeaseLostException("the locks ran out before the change was recorded", false);
        }
    }

    /** Whether the holder still holds every lock of the lease, none run out. */
    public boolean holds(Lease held) {
        return held.entities().stream()
                .allMatch(entity -> held.holder().equals(holders.get(entity)) && !ranOut.contains(entity));
    }

    /** Free, or held by a lease that ran out. */
    private boolean takeable(String entity) {
        return !holders.containsKey(entity) || ranOut.contains(entity);
    }
}
