package io.profilestore.db;

import io.profilestore.core.search.ProfileDocument;
import java.util.List;

/**
 * One page of search hits, and the cursor of the next page when there may be one.
 *
 * @param matched for each hit, the names of the clauses it matched (see {@link SearchIndex#query}): which reading
 *     of each typed word found it
 */
public record SearchPage(List<ProfileDocument> hits, List<List<String>> matched, String nextCursor) {
}
