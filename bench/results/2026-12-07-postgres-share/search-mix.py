#!/usr/bin/env python3
"""What the service's search queries cost Elasticsearch over many searches, against the same queries ranked otherwise:
each query of a file (xz, one JSON request body a line, as SearchQuery.request builds it for a limit of 20) sent as the
service sends it, sorted by score alone, sorted by name alone (no score), and as a filter in index order (neither),
the four in a random order, every query three times, one at a time over one connection; the median and 90th
percentile of the client's time and of Elasticsearch's own "took" (whole milliseconds). Run beside the benchmark's
stack: python3 search-mix.py search-mix-prefix.jsonl.xz (the files' making: README.md, "The search query")."""
import copy
import http.client
import json
import lzma
import random
import sys
import time

queries = [json.loads(line) for line in lzma.open(sys.argv[1], "rt")]
connection = http.client.HTTPConnection("localhost", 19200)


def send(body):
    started = time.perf_counter()
    connection.request("POST", "/profiles/_search?request_cache=false", json.dumps(body).encode(),
                       {"Content-Type": "application/json"})
    answer = json.loads(connection.getresponse().read())
    return (time.perf_counter() - started) * 1000, answer["took"]


def variants(query):
    by_score = copy.deepcopy(query)
    by_score["sort"] = [{"_score": {"order": "desc"}}]
    by_name = copy.deepcopy(query)
    by_name["sort"] = [{"nameSort": {"order": "asc"}}, {"pid": {"order": "asc"}}]
    unranked = copy.deepcopy(query)
    unranked["query"] = {"constant_score": {"filter": query["query"]}}
    unranked["sort"] = ["_doc"]
    return {"the service's (score, then name)": query, "by score alone": by_score,
            "by name alone, no score": by_name, "a filter, index order": unranked}


kinds = list(variants(queries[0]))
times = {kind: [] for kind in kinds}
for _ in range(3):
    for query in queries:
        each = variants(query)
        for kind in random.sample(kinds, len(kinds)):
            times[kind].append(send(each[kind]))
print("%d queries of %s, 3 times each" % (len(queries), sys.argv[1]))
for kind in kinds:
    client = sorted(t[0] for t in times[kind])
    took = sorted(t[1] for t in times[kind])
    n = len(client)
    print("%-34s client p50 %5.2f ms, p90 %5.2f ms; took p50 %d ms, p90 %d ms"
          % (kind, client[n // 2], client[n * 9 // 10], took[n // 2], took[n * 9 // 10]))
