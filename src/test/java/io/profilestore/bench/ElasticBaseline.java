package io.profilestore.bench;

import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.mapping.FieldType;
import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.core.search.SearchCriteria;
import io.profilestore.db.SearchIndex;
import io.profilestore.testing.TestStack;
import java.io.IOException;

/** Elasticsearch alone: the query the search endpoint builds, as one request (no point in time, no HTTP of ours). */
final class ElasticBaseline {

    private ElasticBaseline() {
    }

    static int search(SearchCriteria criteria) throws IOException {
        var response = TestStack.backends().elasticsearch().search(s -> s.index("profiles")
                .query(SearchIndex.query(criteria)).size(20).trackTotalHits(t -> t.enabled(false))
                .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                .sort(o -> o.field(f -> f.field("nameSort").order(SortOrder.Asc).missing("_last").unmappedType(FieldType.Keyword)))
                .sort(o -> o.field(f -> f.field("pid").order(SortOrder.Asc))), JsonNode.class);
        return response.hits().hits().size();
    }
}
