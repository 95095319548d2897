package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.LookUpRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a read or a search relies on in the writer of look-ups ({@link LookUpRecorder}), held alike against the twin
 * ({@code LookUpRecorderTest}) and the group writer on PostgreSQL ({@code LookUpRecorderIT}): once {@code record}
 * returns, the look-up is in the trail, once, as it was given, whatever other callers record at the same time. A
 * refusal is the writer's own business (a full queue, PostgreSQL down: {@code audit.AuditGroupWriterRefusalsIT}).
 */
abstract class LookUpRecorderContract {

    abstract LookUpRecorder recorder();

    /** The look-ups in the trail whose request starts with {@code prefix}, as the trail gives them back. */
    abstract List<AuditEntry> recorded(String prefix) throws Exception;

    /** This case's requests, told apart from every other's in a shared trail. */
    final String run = "/look-up-contract/" + UUID.randomUUID() + "/";

    @Test
    void aLookUpIsInTheTrailOnceAsItWasGiven() throws Exception {
        var pids = List.of(UUID.randomUUID(), UUID.randomUUID());
        var requestId = UUID.randomUUID();
        recorder().record(new AuditEntry(null, null, "Анна Петрова", "JWT", List.of("operator", "editor"),
                "GET /v1/search", run + "surname", pids, 200, requestId));

        assertThat(recorded(run)).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("Анна Петрова");
            assertThat(entry.actorKind()).isEqualTo("JWT");
            assertThat(entry.roles()).containsExactly("operator", "editor");
            assertThat(entry.action()).isEqualTo("GET /v1/search");
            assertThat(entry.request()).isEqualTo(run + "surname");
            assertThat(entry.pids()).containsExactlyElementsOf(pids);
            assertThat(entry.status()).isEqualTo(200);
            assertThat(entry.requestId()).isEqualTo(requestId);
        });
    }

    @Test
    void theLookUpsOfCallersAtOnceAreEachRecordedOnce() throws Exception {
        var callers = Executors.newFixedThreadPool(4);
        try {
            var done = new ArrayList<Future<?>>();
            for (int caller = 0; caller < 4; caller++) {
                int c = caller;
                done.add(callers.submit((Callable<Void>) () -> {
                    for (int i = 0; i < 25; i++) {
                        recorder().record(new AuditEntry(null, null, "caller-" + c, "API_KEY", List.of("operator"),
                                "GET /v1/profiles/{pid}", run + c + "-" + i, List.of(UUID.randomUUID()), 200));
                    }
                    return null;
                }));
            }
            for (var future : done) {
                future.get(1, TimeUnit.MINUTES);
            }
        } finally {
            callers.shutdownNow();
        }

        var requests = recorded(run).stream().map(AuditEntry::request).toList();
        assertThat(requests).hasSize(100).doesNotHaveDuplicates();
    }
}
