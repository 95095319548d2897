package io.profilestore.db;

import io.profilestore.core.search.ProfileDocument;
import java.util.List;

/** One page of search hits, and the cursor of the next page when there may be one. */
public record SearchPage(List<ProfileDocument> hits, String nextCursor) {
}
