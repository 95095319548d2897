package io.profilestore.api;

import java.util.List;
import java.util.UUID;

/**
 * {@code GET /v1/profiles/{pid}/matches}: other users who are probably the person of profile {@code pid}, best first.
 * Each with the profiles of theirs that matched, a score from 0 to 1, and the grounds it rests on
 * ({@code document}, {@code phone}, {@code email}, {@code name-and-birth-date}); never the values themselves.
 */
public record MatchesResponse(UUID pid, List<Match> matches) {

    public MatchesResponse {
        matches = List.copyOf(matches);
    }

    public record Match(UUID uid, List<UUID> pids, double score, List<String> reasons) {
        public Match {
            pids = List.copyOf(pids);
            reasons = List.copyOf(reasons);
        }
    }
}
