#!/usr/bin/env python3
"""What the service's surname-prefix query costs Elasticsearch, against the same query sorted otherwise and against
Elasticsearch's simplest queries: each sent 15 times to warm, then 40 times, one at a time; the median of the client's
time and of Elasticsearch's own "took". The query is the one SearchQuery builds for the surname prefix "ив" (two
readings: as typed, and the other keyboard layout). Run beside the benchmark's stack: python3 search-sort.py"""
import json
import time
import urllib.request

SOURCE = ["pid", "uid", "masterUid", "version", "surname", "firstName", "patronymic", "birthDate"]
SERVICE = {"_source": {"includes": SOURCE}, "size": 21, "track_total_hits": False,
           "query": {"bool": {"must": [{"bool": {"minimum_should_match": "1", "should": [
               {"bool": {"boost": 2.0, "must": [{"bool": {"minimum_should_match": "1", "should": [
                   {"constant_score": {"filter": {"prefix": {"surnameKey": {"value": "ив"}}}}}]}}]}},
               {"bool": {"boost": 1.0, "must": [{"bool": {"minimum_should_match": "1", "should": [
                   {"constant_score": {"filter": {"prefix": {"surnameKey": {"value": "бд"}}}}}]}}]}}]}}]}},
           "sort": [{"_score": {"order": "desc"}},
                    {"nameSort": {"missing": "_last", "order": "asc", "unmapped_type": "keyword"}},
                    {"pid": {"order": "asc"}}]}


def search(body):
    req = urllib.request.Request("http://localhost:19200/profiles/_search", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as response:
        return json.load(response)


def medians(body, n=40):
    for _ in range(15):
        search(body)
    client, took = [], []
    for _ in range(n):
        start = time.time()
        took.append(search(body)["took"])
        client.append((time.time() - start) * 1000)
    return sorted(client)[n // 2], sorted(took)[n // 2]


one_prefix = {"prefix": {"surnameKey": "ив"}}
variants = {
    "the service's query (score, then nameSort, then pid)": SERVICE,
    "the same query, sorted by score alone": dict(SERVICE, sort=[{"_score": {"order": "desc"}}]),
    "one prefix clause, sorted by score alone": {"_source": {"includes": SOURCE}, "size": 21,
                                                "track_total_hits": False, "query": one_prefix},
    "one prefix clause, sorted by nameSort, then pid": {"_source": {"includes": SOURCE}, "size": 21,
                                                       "track_total_hits": False, "query": one_prefix,
                                                       "sort": [{"nameSort": "asc"}, {"pid": "asc"}]},
}
matches = search({"size": 0, "track_total_hits": True, "query": SERVICE["query"]})["hits"]["total"]["value"]
print("matches of the service's query: %d" % matches)
for name, body in variants.items():
    client, took = medians(body)
    print("%-52s client p50 %.2f ms, took p50 %d ms" % (name, client, took))
