package io.profilestore.search;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.MatchesResponse;
import io.profilestore.change.ProfileRows;
import io.profilestore.profiles.ProfileNotFoundException;
import io.profilestore.elasticsearch.SearchIndex;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Possible duplicates of a profile: the other users who share a ground with it ({@link MatchQuery}), ranked by a
 * score. Each ground is evidence of its own weight, and the grounds of one user combine as independent evidence:
 * score = 1 - (1 - w1)(1 - w2)... A document number is nearly a person's own; a surname, first name and birth date
 * together are strong, though namesakes are born on the same day; a phone or an e-mail alone is weaker, since a
 * family shares them and operators reassign numbers. The profile is read from Cassandra (the truth), its
 * candidates found in the index and then read from Cassandra too: the index learns of a merge, a move or an erase
 * a moment late, and a candidate is answered under the user it stands under now (never the profile's own), or not
 * at all once erased.
 */
public class MatchService {

    /** Users answered at most. */
    public static final int MAX_MATCHES = 10;

    public static final Map<String, Double> WEIGHTS = Map.of(
            MatchQuery.DOCUMENT, 0.9,
            MatchQuery.NAME_AND_BIRTH_DATE, 0.7,
            MatchQuery.PHONE, 0.5,
            MatchQuery.EMAIL, 0.5);
    /** The order reasons are listed in: strongest first. */
    private static final List<String> REASONS = List.of(MatchQuery.DOCUMENT, MatchQuery.NAME_AND_BIRTH_DATE,
            MatchQuery.PHONE, MatchQuery.EMAIL);

    private final SearchIndex index;
    private final ProfileRows profiles;
    private final NameNormalizer names;
    private final ObjectMapper json;
    private final NumberKeys keys;

    public MatchService(SearchIndex index, ProfileRows profiles, NameNormalizer names, ObjectMapper json,
            NumberKeys keys) {
        this.index = index;
        this.profiles = profiles;
        this.names = names;
        this.json = json;
        this.keys = keys;
    }

    public MatchesResponse matches(UUID pid) {
        var row = profiles.find(pid).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
        ProfileDocument profile;
        try {
            profile = ProfileDocument.of(row.pid(), row.uid(), null, row.version(), json.readTree(row.data()),
                    row.updatedAt(), names, keys);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored document is not JSON", e);
        }
        if (!MatchQuery.hasGrounds(profile)) {
            return new MatchesResponse(pid, List.of());
        }
        // the hits by the user the index has them under, strongest first (a hit's grounds add up per user)
        var byIndexedUser = new LinkedHashMap<UUID, Candidate>();
        for (var hit : search(profile)) {
            var candidate = byIndexedUser.computeIfAbsent(hit.source().uid(), uid -> new Candidate());
            candidate.pids.add(hit.source().pid());
            candidate.grounds.put(hit.source().pid(), hit.matchedQueries().keySet());
            candidate.reasons.addAll(hit.matchedQueries().keySet());
        }
        var ranked = new ArrayList<>(byIndexedUser.values());
        ranked.sort(Comparator.comparingDouble((Candidate c) -> score(c.reasons)).reversed());
        // only the strongest are read from Cassandra, a few users more than are answered at a time: each read is a
        // partition read, and reading every hit (50) made a look-up cost fifty reads; more are read only when those
        // read are gone, moved under the profile's own user, or merged into one another since the index learned
        var byUser = new LinkedHashMap<UUID, Candidate>();
        int next = 0;
        while (byUser.size() < MAX_MATCHES && next < ranked.size()) {
            int upTo = Math.min(ranked.size(), next + MAX_MATCHES - byUser.size() + 2);
            var batch = ranked.subList(next, upTo);
            next = upTo;
            var now = profiles.findAll(batch.stream().flatMap(c -> c.pids.stream()).toList());
            for (var indexed : batch) {
                indexed.grounds.forEach((candidatePid, reasons) -> {
                    var current = now.get(candidatePid);
                    if (current != null && !current.uid().equals(row.uid())) {
                        var candidate = byUser.computeIfAbsent(current.uid(), uid -> new Candidate());
                        candidate.pids.add(candidatePid);
                        candidate.reasons.addAll(reasons);
                    }
                });
            }
        }
        var matches = new ArrayList<MatchesResponse.Match>();
        byUser.forEach((uid, candidate) -> matches.add(new MatchesResponse.Match(uid, List.copyOf(candidate.pids),
                score(candidate.reasons), REASONS.stream().filter(candidate.reasons::contains).toList())));
        matches.sort(Comparator.comparingDouble(MatchesResponse.Match::score).reversed()
                .thenComparing(m -> m.reasons().size(), Comparator.reverseOrder())
                .thenComparing(MatchesResponse.Match::uid));
        return new MatchesResponse(pid, matches.subList(0, Math.min(MAX_MATCHES, matches.size())));
    }

    /** 1 - the product of (1 - weight) over the grounds, to three decimals. */
    static double score(Set<String> reasons) {
        double none = 1;
        for (String reason : reasons) {
            none *= 1 - WEIGHTS.getOrDefault(reason, 0.0);
        }
        return Math.round((1 - none) * 1000) / 1000.0;
    }

    private List<Hit<ProfileDocument>> search(ProfileDocument profile) {
        try {
            return index.search(MatchQuery.request(index.alias(), profile, WEIGHTS), ProfileDocument.class);
        } catch (ElasticsearchException e) {
            throw new SearchUnavailableException("Elasticsearch refused the search for matches", e);
        } catch (IOException e) {
            throw new SearchUnavailableException("Elasticsearch could not be reached", e);
        } catch (RuntimeException e) {
            if (SearchIndex.isOutage(e)) {
                throw new SearchUnavailableException("Elasticsearch did not answer in time", e);
            }
            throw e;
        }
    }

    /** What the hits of one user add up to: its pids, each with its grounds, and the grounds of them all. */
    private static final class Candidate {
        final Set<UUID> pids = new LinkedHashSet<>();
        final Map<UUID, Set<String>> grounds = new LinkedHashMap<>();
        final Set<String> reasons = new LinkedHashSet<>();
    }
}
