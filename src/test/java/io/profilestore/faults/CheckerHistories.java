package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Histories and final states written by hand, for the fault suite's checker ({@link HistoryCheckerTest}). */
final class CheckerHistories {

    private CheckerHistories() {
    }

    /** A history written step by step, each request after the one before, each with a request id of its own. */
    static final class History {
        final List<Event> events = new ArrayList<>();
        long clock;

        Event add(String op, List<UUID> pids, UUID uid, UUID source, Long ifMatch, int status, String outcome,
                Map<UUID, String> writes, Map<UUID, Long> versions, List<UUID> moved, String write, Map<UUID, String> seen) {
            return add(op, pids, uid, source, ifMatch, status, outcome, writes, versions, moved, write, Map.of(), seen);
        }

        Event add(String op, List<UUID> pids, UUID uid, UUID source, Long ifMatch, int status, String outcome,
                Map<UUID, String> writes, Map<UUID, Long> versions, List<UUID> moved, String write,
                Map<UUID, Long> expected, Map<UUID, String> seen) {
            long start = clock += 10;
            long end = clock += 10;
            var event = new Event(events.size() + 1, 0, op, "api-1", start, end, pids, uid, source, ifMatch, status, null,
                    outcome, writes, versions, moved, write, expected, null, seen, UUID.randomUUID(), List.of());
            events.add(event);
            return event;
        }

        Event last() {
            return events.get(events.size() - 1);
        }

        /** A request sent at {@code start} and answered (or given up) at {@code end}, in the history's order. */
        Event at(long start, long end, String op, List<UUID> pids, UUID uid, UUID source, Long ifMatch, int status,
                String problem, String outcome, Map<UUID, String> writes, Map<UUID, Long> versions,
                Map<UUID, String> seen) {
            var event = new Event(events.size() + 1, 0, op, "api-1", start, end, pids, uid, source, ifMatch, status, problem,
                    outcome, writes, versions, List.copyOf(op.equals("merge") || op.equals("unmerge") ? versions.keySet()
                    : List.of()), null, Map.of(), null, seen, UUID.randomUUID(), List.of());
            events.add(event);
            clock = Math.max(clock, end);
            return event;
        }

        /** A merge answered 503 operation-pending: recorded, to be completed by the recovery. */
        Event mergePending(UUID target, UUID source) {
            long start = clock += 10;
            return at(start, clock += 10, "merge", List.of(), target, source, null, 503, "operation-pending", Event.UNKNOWN,
                    Map.of(), Map.of(), Map.of());
        }

        History unmerge(UUID target, UUID source, Map<UUID, Long> versions) {
            add("unmerge", List.of(), target, source, null, 200, Event.OK, Map.of(), versions, List.copyOf(versions.keySet()),
                    null, Map.of());
            return this;
        }

        History create(UUID pid, UUID uid, String write) {
            add("create", List.of(pid), uid, null, null, 201, Event.OK, Map.of(pid, write), Map.of(pid, 1L), List.of(),
                    write, Map.of());
            return this;
        }

        History createWithoutAnswer(UUID under, String write) {
            add("create", List.of(), under, null, null, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), write, Map.of());
            return this;
        }

        History put(UUID pid, long ifMatch, String write, Long answered) {
            add("put", List.of(pid), null, null, ifMatch, answered == null ? 0 : 200, answered == null ? Event.UNKNOWN : Event.OK,
                    Map.of(pid, write), answered == null ? Map.of() : Map.of(pid, answered), List.of(), null, Map.of());
            return this;
        }

        History erase(UUID pid, long ifMatch, String outcome) {
            add("erase", List.of(pid), null, null, ifMatch, Event.OK.equals(outcome) ? 204 : 0, outcome, Map.of(),
                    Map.of(), List.of(), null, Map.of());
            return this;
        }

        History move(UUID pid, long ifMatch, UUID target, long answered) {
            add("move", List.of(pid), target, null, ifMatch, 200, Event.OK, Map.of(), Map.of(pid, answered), List.of(),
                    null, Map.of());
            return this;
        }

        History moveWithoutAnswer(UUID pid, long ifMatch, UUID target) {
            add("move", List.of(pid), target, null, ifMatch, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null, Map.of());
            return this;
        }

        History read(UUID pid, long version, UUID uid, String seen) {
            add("read", List.of(pid), uid, null, null, 200, Event.OK, Map.of(), Map.of(pid, version), List.of(), null,
                    Map.of(pid, seen));
            return this;
        }

        /** A batch update of these profiles, each replacing version 1, that got no answer. */
        History batchUpdateWithoutAnswer(Map<UUID, String> writes) {
            var expected = new HashMap<UUID, Long>();
            writes.keySet().forEach(pid -> expected.put(pid, 1L));
            add("batchUpdate", List.copyOf(writes.keySet()), null, null, null, 0, Event.UNKNOWN, writes, Map.of(), List.of(),
                    null, expected, Map.of());
            return this;
        }

        Event mergeWithoutAnswer(UUID target, UUID source) {
            return add("merge", List.of(), target, source, null, 0, Event.UNKNOWN, Map.of(), Map.of(), List.of(), null,
                    Map.of());
        }

        /** An acknowledged merge that answered it moved these profiles, at these versions. */
        Event merge(UUID target, UUID source, Map<UUID, Long> versions) {
            return add("merge", List.of(), target, source, null, 200, Event.OK, Map.of(), versions,
                    List.copyOf(versions.keySet()), null, Map.of());
        }
    }

    /** A final state: profiles, users and links with their writers, the journal, the audit trail, the index. */
    static final class State {
        final Map<UUID, FinalState.Profile> profiles = new HashMap<>();
        final Map<UUID, FinalState.User> users = new HashMap<>();
        final Set<FinalState.Link> links = new HashSet<>();
        final Map<UUID, FinalState.Document> index = new HashMap<>();
        final List<String> repairs = new ArrayList<>();
        final List<FinalState.Operation> operations = new ArrayList<>();
        final List<FinalState.SystemChange> systemChanges = new ArrayList<>();
        final Map<UUID, Map<Long, UUID>> versionWriters = new HashMap<>();
        Map<UUID, Long> recorded;

        /** A profile (listed by its user), without a writer named: the check of who wrote it is left out. */
        State profile(UUID pid, long version, UUID uid, UUID home, String write) {
            return profile(pid, version, uid, home, write, null);
        }

        State profile(UUID pid, long version, UUID uid, UUID home, String write, UUID writer) {
            profiles.put(pid, new FinalState.Profile(version, uid, home, write, "Anna", writer));
            index.put(pid, new FinalState.Document(version, uid, "Anna"));
            links.removeIf(link -> link.pid().equals(pid) && link.writer() == null);
            links.add(new FinalState.Link(uid, pid, null));
            users.putIfAbsent(uid, new FinalState.User(null, null, null));
            users.putIfAbsent(home, new FinalState.User(null, null, null));
            return this;
        }

        State user(UUID uid, UUID master, UUID parent) {
            users.put(uid, new FinalState.User(master, parent, null));
            return this;
        }

        State user(UUID uid, UUID master, UUID parent, UUID writer) {
            users.put(uid, new FinalState.User(master, parent, writer));
            return this;
        }

        /** The journal holds this operation of a request applied, recorded just after it began, finished at {@code at}. */
        State applied(Event request, UUID target, UUID source, Map<UUID, FinalState.Move> moves, long finishedAt) {
            return journal(request, "applied", target, source, moves, finishedAt);
        }

        /** The journal holds this merge or unmerge of a request, applied (or as {@code state} says). */
        State journal(Event request, String state, UUID target, UUID source, Map<UUID, FinalState.Move> moves,
                Long finishedAt) {
            operations.add(new FinalState.Operation(UUID.randomUUID(), request.requestId(), request.op(), target,
                    List.of(source), null, state, request.start() + 1, finishedAt, moves));
            return this;
        }

        FinalState build() {
            return new FinalState(profiles, users, links, operations, new FinalState.Audit(recorded, systemChanges), index,
                    repairs, versionWriters);
        }
    }

    static HistoryChecker.Result check(History history, State state) {
        return HistoryChecker.check(history.events, state.build());
    }

    /** A profile a merge (or unmerge) moved: from, to, at which version; its home is where it came from. */
    static FinalState.Move moved(UUID from, UUID to, long version) {
        return new FinalState.Move(from, from, to, version);
    }
}
