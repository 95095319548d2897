package io.profilestore.bench;

import static io.profilestore.bench.Bench.JSON;

import co.elastic.clients.elasticsearch.core.SearchRequest;
import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.search.MatchQuery;
import io.profilestore.search.MatchService;
import io.profilestore.search.NameNormalizer;
import io.profilestore.search.ProfileDocument;
import io.profilestore.search.SearchCriteria;
import io.profilestore.search.TypedQuery;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;

/**
 * The search scenarios: each kind of search through the service, as its raw Elasticsearch query and from PostgreSQL,
 * one after another and then taking turns in one window; possible duplicates and how well they are found; and what
 * an operator's audited look-up costs against a platform's.
 */
final class SearchScenarios {

    private final BenchOptions options;
    private final BenchHttp http;
    private final BenchCalls calls;
    private final Findings findings;
    private final NameNormalizer names;
    private final int adminPort;

    SearchScenarios(BenchOptions options, BenchHttp http, BenchCalls calls, Findings findings, NameNormalizer names,
            int adminPort) {
        this.options = options;
        this.http = http;
        this.calls = calls;
        this.findings = findings;
        this.names = names;
        this.adminPort = adminPort;
    }

    /** Each kind of search, through the service, as the raw Elasticsearch query, and from PostgreSQL. */
    void eachKind(Dataset dataset, SearchTerms terms, PostgresBaseline postgres) {
        findings.measured(Load.openLoop("GET /v1/search surname prefix", options.rate(50), options.warmup(), options.duration(),
                () -> calls.get("/v1/search?limit=20&surname=" + SearchTerms.encode(terms.surnamePrefix()))));
        findings.measured(Load.openLoop("raw Elasticsearch surname prefix query", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(names.queryReadings(terms.surnamePrefix()),
                        null, null, null, null, null, null)))));
        findings.measured(Load.openLoop("PostgreSQL baseline: surname prefix", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> postgres.surnamePrefix(names.read(terms.surnamePrefix()).words().get(0).iterator().next()))));

        findings.measured(Load.openLoop("GET /v1/search exact phone", options.rate(50), options.warmup(), options.duration(),
                () -> calls.get("/v1/search?phone=" + dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)])));
        findings.measured(Load.openLoop("raw Elasticsearch exact phone query", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null,
                        dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)], null, null)))));
        findings.measured(Load.openLoop("PostgreSQL baseline: exact phone", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> postgres.phone(dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)]))));

        findings.measured(Load.openLoop("GET /v1/search q, a name as typed", options.rate(50), options.warmup(), options.duration(),
                () -> calls.get("/v1/search?limit=20&q=" + SearchTerms.encode(terms.typedName()))));
        findings.measured(Load.openLoop("raw Elasticsearch q query", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null, null, null,
                        TypedQuery.parse(terms.typedName(), names))))));

        // the same, taking turns in one window with HTTP alone (InterleavedReport): the six kinds of search together at
        // the 50/s of one kind above, so that Elasticsearch works as hard as there (all at 50/s each saturated it)
        var scenarios = new ArrayList<String>();
        InterleavedReport.SEARCHES_INTERLEAVED.forEach(c -> scenarios.addAll(List.of(c.service(), c.backend())));
        scenarios.add(InterleavedReport.SEARCHES_HTTP);
        var ping = URI.create("http://127.0.0.1:" + adminPort + "/ping");
        Load.interleaved(scenarios, options.rate(7 * 50.0 / 6), options.warmup(), options.duration(), List.of(
                () -> calls.get("/v1/search?limit=20&surname=" + SearchTerms.encode(terms.surnamePrefix())),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(names.queryReadings(terms.surnamePrefix()),
                        null, null, null, null, null, null))),
                () -> calls.get("/v1/search?phone=" + dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)]),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null,
                        dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)], null, null))),
                () -> calls.get("/v1/search?limit=20&q=" + SearchTerms.encode(terms.typedName())),
                () -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null, null, null,
                        TypedQuery.parse(terms.typedName(), names)))),
                () -> http.get(ping).thenApply(SimpleHttpResponse::getCode))).forEach(findings::measured);
    }

    /**
     * A profile's possible duplicates through the service, the raw Elasticsearch query it sends beside it, then how
     * well they find the planted duplicates ({@link MatchQuality}).
     */
    void matches(Dataset dataset) throws Exception {
        var asked = new ArrayList<UUID>();
        var queries = new ArrayList<SearchRequest>();
        var random = new SplittableRandom(options.seed());
        var generator = dataset.generator();
        for (int i = 0; i < dataset.size; i++) {
            var data = generator.next().data();
            if (random.nextInt(Math.max(1, dataset.size / 2_000)) == 0) {
                asked.add(dataset.pids.get(i));
                queries.add(MatchQuery.request("profiles", ProfileDocument.of(dataset.pids.get(i), dataset.uid(i), null, 1,
                        data, Instant.now(), names, TestAuth.numberKeys()), MatchService.WEIGHTS));
            }
        }
        findings.measured(Load.openLoop("GET /v1/profiles/{pid}/matches", options.rate(50), options.warmup(), options.duration(),
                () -> calls.get("/v1/profiles/" + asked.get(ThreadLocalRandom.current().nextInt(asked.size())) + "/matches")));
        findings.measured(Load.openLoop("raw Elasticsearch matches query", options.rate(50), options.warmup(), options.duration(),
                () -> calls.async(() -> TestStack.backends().elasticsearch().search(
                        queries.get(ThreadLocalRandom.current().nextInt(queries.size())), JsonNode.class))));
        var quality = MatchQuality.measure(dataset, pid -> {
            var reply = http.get("/v1/profiles/" + pid + "/matches").join();
            try {
                return JSON.readTree(reply.getBodyBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, Math.max(100, (int) (5_000 * options.scale())), options.seed());
        findings.section("## Possible duplicates: how many are found\n" + MatchQuality.markdown(quality));
        System.out.printf("matches: recall %.1f%% of %,d planted pairs%n", 100 * quality.recall(), quality.pairs());
    }

    /**
     * The same surname searches, as many as 8 callers can make back to back, with a platform's key and with an
     * operator's: the operator's record is committed before each answer, the platform's is queued and committed after
     * it by a writer of its own, so the ratio of the two rates is what waiting for the record costs a look-up. Measured in four halves, platform, operator,
     * operator, platform, so that neither is favoured by coming first or last (the JIT, Elasticsearch's caches,
     * a merge that ends meanwhile); each caller's two halves are one result.
     */
    void byCaller(SearchTerms terms) {
        var prefixes = new String[4096];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = "/v1/search?limit=20&surname=" + SearchTerms.encode(terms.surnamePrefix());
        }
        var halves = new LinkedHashMap<String, List<Load.Result>>();
        for (var caller : List.of(Map.entry(Report.SEARCHES_AS_PLATFORM, TestAuth.PLATFORM),
                Map.entry(Report.SEARCHES_AS_OPERATOR, TestAuth.OPERATOR),
                Map.entry(Report.SEARCHES_AS_OPERATOR, TestAuth.OPERATOR),
                Map.entry(Report.SEARCHES_AS_PLATFORM, TestAuth.PLATFORM))) {
            var next = new AtomicInteger();
            halves.computeIfAbsent(caller.getKey(), k -> new ArrayList<>()).add(Load.closedLoop(caller.getKey(),
                    Report.SEARCH_CALLERS, 1, options.warmup().dividedBy(2), options.duration().dividedBy(2),
                    () -> http.get(prefixes[Math.floorMod(next.getAndIncrement(), prefixes.length)], caller.getValue())
                            .thenApply(SimpleHttpResponse::getCode)));
        }
        halves.values().forEach(two -> findings.measured(Load.Result.together(two)));
    }
}
