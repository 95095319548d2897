package io.profilestore.search;

import java.util.List;

/**
 * One page of search hits, and the cursor of the next page when there may be one.
 *
 * @param matched for each hit, the names of the clauses it matched (see {@link SearchQuery#matchName}): which
 *     reading of each typed word found it
 */
record SearchPage(List<ProfileDocument> hits, List<List<String>> matched, String nextCursor) {
}
