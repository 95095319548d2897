package io.profilestore.search;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.search.Hit;
import io.profilestore.api.SearchResponse;
import io.profilestore.change.ProfileRows;
import io.profilestore.elasticsearch.SearchIndex;
import java.io.IOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;


/**
 * Search by name prefix (any common spelling), exact phone and document numbers, and birth date. Says how it
 * understood each parameter; with {@code hydrate} adds each profile's document as Cassandra holds it now.
 */
public class SearchService {

    public static final int MAX_LIMIT = 100;
    public static final int MAX_TEXT = 100;

    /** The parameters of a search, as sent. */
    public record Request(String q, String surname, String firstName, String patronymic, String birthDate,
            String phone, String document, Integer limit, String cursor, boolean hydrate) {
    }

    private final SearchIndex index;
    private final ProfileRows profiles;
    private final NameNormalizer names;
    private final CursorSeal cursors;
    private final NumberKeys keys;

    public SearchService(SearchIndex index, ProfileRows profiles, NameNormalizer names, CursorSeal cursors,
            NumberKeys keys) {
        this.index = index;
        this.profiles = profiles;
        this.names = names;
        this.cursors = cursors;
        this.keys = keys;
    }

    public SearchResponse search(Request request) {
        var understood = new LinkedHashMap<String, Object>();
        var criteria = new SearchCriteria(
                name("surname", request.surname(), understood),
                name("firstName", request.firstName(), understood),
                name("patronymic", request.patronymic(), understood),
                date(request.birthDate(), understood),
                number("phone", request.phone(), Numbers::phone, understood),
                number("document", request.document(), Numbers::document, understood),
                typed(request.q(), understood));
        if (understood.isEmpty()) {
            throw new InvalidSearchException("invalid-query",
                    "give at least one of q, surname, firstName, patronymic, birthDate, phone, document");
        }
        int limit = request.limit() == null ? 20 : request.limit();
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidSearchException("invalid-query", "limit must be between 1 and " + MAX_LIMIT);
        }
        understood.put("limit", limit);
        // a cursor continues exactly the search it was given out for
        String search = criteria.toString();
        String cursor = blankToNull(request.cursor());
        var page = page(criteria, limit, cursor == null ? null : cursors.open(cursor, search));
        var items = new ArrayList<SearchResponse.Item>();
        for (int i = 0; i < page.hits().size(); i++) {
            var d = page.hits().get(i);
            items.add(new SearchResponse.Item(d.pid(), d.uid(), d.masterUid(), d.surname(), d.firstName(),
                    d.patronymic(), d.birthDate(), d.version(), null, matched(criteria.typed(), page.matched().get(i))));
        }
        return new SearchResponse(request.hydrate() ? hydrate(items) : items,
                page.nextCursor() == null ? null : cursors.seal(page.nextCursor(), search),
                understood);
    }

    /**
     * One page of a search, sorted by how well the name matched (a reading as typed before one with the other
     * keyboard layout), then by name, then by pid: a total order, so a page continues exactly after the last hit
     * of the one before ({@code search_after}) with no state kept in Elasticsearch between pages. A flood of first
     * pages costs nothing after its answers, and paging is stable while writes go on: no hit twice, none skipped,
     * except that a profile written or renamed meanwhile shows where its new sort place is, if that is still ahead.
     * One hit more than the page is asked for, so that a page that holds the last hit says there is no next.
     */
    private SearchPage page(SearchCriteria criteria, int limit, String cursor) {
        var after = cursor == null ? null : PageCursor.decode(cursor);
        try {
            var hits = index.search(SearchQuery.request(index.alias(), criteria, keys, limit,
                    after == null ? null : after.after()), ProfileDocument.class);
            var page = hits.subList(0, Math.min(limit, hits.size()));
            String next = hits.size() > limit ? new PageCursor(page.get(page.size() - 1).sort()).encode() : null;
            return new SearchPage(page.stream().map(Hit::source).toList(),
                    page.stream().map(hit -> List.copyOf(hit.matchedQueries().keySet())).toList(), next);
        } catch (ElasticsearchException e) {
            if (e.status() == 400 && after != null) {
                throw new InvalidSearchException("invalid-query", "the cursor does not belong to this search");
            }
            if (e.status() == 400) {
                // a search Elasticsearch will not run as asked (too many words and variants, say): the caller's
                // to change, not an outage
                throw new InvalidSearchException("invalid-query", "this search cannot be run as asked; use fewer or shorter words");
            }
            throw new SearchUnavailableException("Elasticsearch refused the search", e);
        } catch (IOException e) {
            throw new SearchUnavailableException("Elasticsearch could not be reached", e);
        } catch (RuntimeException e) {
            // the REST client wraps what is no IOException, such as the wait for one of its pooled connections
            // running out, in a bare RuntimeException: still an outage to the caller, never a 500
            if (SearchIndex.isOutage(e)) {
                throw new SearchUnavailableException("Elasticsearch did not answer in time", e);
            }
            throw e;
        }
    }

    /** The documents as Cassandra holds them now; a profile erased since it was indexed is left out. */
    private List<SearchResponse.Item> hydrate(List<SearchResponse.Item> items) {
        var rows = profiles.findAll(items.stream().map(SearchResponse.Item::pid).toList());
        return items.stream()
                .filter(item -> rows.containsKey(item.pid()))
                .map(item -> {
                    var row = rows.get(item.pid());
                    return new SearchResponse.Item(item.pid(), row.uid(), item.masterUid(), item.surname(),
                            item.firstName(), item.patronymic(), item.birthDate(), row.version(), row.data(),
                            item.matched());
                })
                .toList();
    }

    private TypedQuery typed(String q, Map<String, Object> understood) {
        if (blankToNull(q) == null) {
            return null;
        }
        var typed = TypedQuery.parse(q, names);
        understood.put("q", typed.explained());
        return typed;
    }

    /** For each name word of {@code q}, its best reading that this hit matched (as typed before another layout). */
    private static List<SearchResponse.Match> matched(TypedQuery typed, List<String> clauses) {
        if (typed == null || typed.names().isEmpty()) {
            return null;
        }
        var matched = new ArrayList<SearchResponse.Match>();
        for (int i = 0; i < typed.names().size(); i++) {
            var word = typed.names().get(i);
            for (var source : NameNormalizer.Source.values()) {
                if (clauses.contains(SearchQuery.matchName(i, source))) {
                    matched.add(new SearchResponse.Match(word.text(), word.describe(source)));
                    break;
                }
            }
        }
        return matched;
    }

    private List<NameNormalizer.Reading> name(String parameter, String value, Map<String, Object> understood) {
        if (blankToNull(value) == null) {
            return null;
        }
        checkLength(parameter, value);
        var readings = names.queryReadings(value);
        if (readings.isEmpty()) {
            throw new InvalidSearchException("invalid-query", parameter + " has no letters to search for");
        }
        var described = new ArrayList<Map<String, Object>>();
        for (var reading : readings) {
            described.add(Map.of("reading", reading.source().description(),
                    "words", reading.words().stream().map(List::copyOf).toList()));
        }
        understood.put(parameter, Map.of("input", value, "readings", described));
        return readings;
    }

    private LocalDate date(String value, Map<String, Object> understood) {
        if (blankToNull(value) == null) {
            return null;
        }
        var date = Numbers.date(value).orElseThrow(() -> new InvalidSearchException("invalid-query",
                "birthDate must be a date such as 1985-03-07 or 07.03.1985"));
        understood.put("birthDate", Map.of("input", value, "date", date.toString()));
        return date;
    }

    private String number(String parameter, String value, Function<String, Optional<String>> normalize,
            Map<String, Object> understood) {
        if (blankToNull(value) == null) {
            return null;
        }
        checkLength(parameter, value);
        var digits = normalize.apply(value).orElseThrow(() -> new InvalidSearchException("invalid-query",
                parameter + " has too few or too many digits"));
        understood.put(parameter, Map.of("input", value, "digits", digits));
        return digits;
    }

    private static void checkLength(String parameter, String value) {
        if (value.length() > MAX_TEXT) {
            throw new InvalidSearchException("invalid-query", parameter + " may be at most " + MAX_TEXT + " characters");
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

}
