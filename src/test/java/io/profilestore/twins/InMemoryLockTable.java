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
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The lock table in memory, for unit tests of the write path: all the entities or none, a taken one refused at once,
 * fences that only grow and exceed every earlier holder's, and a lease that runs out when a test says so
 * ({@link #runOut}); {@code contracts.LockTableContract} holds it to PostgreSQL. The changes that may still land
 * ({@link UnsettledChanges}) live beside the locks, as in PostgreSQL: kept at a record's commit, found by the next
 * holder of one of their profiles, forgotten by a release after a confirmed write; {@code
 * contracts.UnsettledChangesContract} holds that half to PostgreSQL.
 */
public final class InMemoryLockTable implements LockTable, UnsettledChanges {

    private final Map<String, UUID> holders = new HashMap<>();
    private final Map<String, Long> fences = new HashMap<>();
    /** Entities whose holder's lease ran out ({@link #runOut}): free for others, still named for it. */
    private final Set<String> ranOut = new HashSet<>();
    private long clockMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    /** The changes that may still land, by holder, in the order they were recorded. */
    private final Map<UUID, Kept> unsettled = new LinkedHashMap<>();

    /** One change that may still land: what {@link #of} answers, and when it was recorded and found in part. */
    private record Kept(Unsettled change, Instant recordedAt, Instant partSince) {
    }

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
        return new Lease(held.holder(), List.copyOf(entities), fence, held.acquiredNanos(),
                unsettledOn(held.holder(), more));
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

    /**
     * Frees what is still named for the holder (its lease run out or not), and forgets what would complete its change
     * (Cassandra confirmed it); RELEASED if that was every lock.
     */
    @Override
    public Release release(Lease held) {
        unsettled.remove(held.holder());
        return releaseOnly(held);
    }

    private Release releaseOnly(Lease held) {
        var named = held.entities().stream().filter(entity -> held.holder().equals(holders.get(entity))).toList();
        named.forEach(entity -> {
            holders.remove(entity);
            ranOut.remove(entity);
        });
        return named.size() == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
    }

    /** Under the holder, replacing what it kept before (a settler's record, then its own). */
    @Override
    public void keep(RecordTransaction transaction, Lease held, Completion completion) {
        var change = new Unsettled(held.holder(), List.copyOf(completion.pids()), held.fence(), null, null, completion);
        InMemoryTransaction.write(transaction, () -> {
            unsettled.remove(held.holder());
            unsettled.put(held.holder(), new Kept(change, Instant.now(), null));
        });
    }

    @Override
    public Optional<Unsettled> of(UUID holder) {
        var kept = unsettled.get(holder);
        if (kept == null) {
            return Optional.empty();
        }
        var change = kept.change();
        var partFor = kept.partSince() == null ? null : Duration.between(kept.partSince(), Instant.now());
        return Optional.of(new Unsettled(holder, change.pids(), change.fence(), change.revokedFence(), partFor,
                change.completion()));
    }

    @Override
    public void foundInPart(UUID holder) {
        unsettled.computeIfPresent(holder, (h, kept) -> kept.partSince() != null ? kept
                : new Kept(kept.change(), kept.recordedAt(), Instant.now()));
    }

    @Override
    public void revoke(RecordTransaction transaction, UUID holder, long fence) {
        InMemoryTransaction.write(transaction, () -> unsettled.computeIfPresent(holder, (h, kept) -> {
            var change = kept.change();
            return new Kept(new Unsettled(h, change.pids(), change.fence(), fence, null, change.completion()),
                    kept.recordedAt(), kept.partSince());
        }));
    }

    @Override
    public List<List<UUID>> leftBehind(Duration age, int limit) {
        var before = Instant.now().minus(age);
        return unsettled.values().stream().filter(kept -> kept.recordedAt().isBefore(before))
                .sorted(Comparator.comparing(Kept::recordedAt)).limit(limit).map(kept -> kept.change().pids()).toList();
    }

    @Override
    public Release releaseLeavingItToComplete(Lease held) {
        return releaseOnly(held);
    }

    @Override
    public Release forget(Lease held) {
        unsettled.remove(held.holder());
        return releaseOnly(held);
    }

    @Override
    public void settled(UUID holder) {
        unsettled.remove(holder);
    }

    /** The other holders with a change that may still land on a profile among these entities. */
    private Set<UUID> unsettledOn(UUID holder, Collection<String> entities) {
        var pids = entities.stream().filter(entity -> entity.startsWith("profile:"))
                .map(entity -> UUID.fromString(entity.substring("profile:".length()))).collect(Collectors.toSet());
        return unsettled.values().stream().map(Kept::change)
                .filter(change -> !change.holder().equals(holder) && change.pids().stream().anyMatch(pids::contains))
                .map(Unsettled::holder).collect(Collectors.toSet());
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
