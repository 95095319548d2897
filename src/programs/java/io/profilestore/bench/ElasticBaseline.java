package io.profilestore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.search.SearchCriteria;
import io.profilestore.search.SearchQuery;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;

/** Elasticsearch alone: the request the search endpoint sends for a first page (no HTTP of ours). */
final class ElasticBaseline {

    private ElasticBaseline() {
    }

    static int search(SearchCriteria criteria) throws IOException {
        return TestStack.backends().elasticsearch().search(SearchQuery.request("profiles", criteria, TestAuth.numberKeys(), 20,
                null), JsonNode.class)
                .hits().hits().size();
    }
}
