#!/usr/bin/env python3
"""What Elasticsearch spends per indexed change, alone: updates of existing documents at a fixed rate, in bulks of a
given size, each with an external version one above the document's (so the service's later writes, whose versions are
fences in microseconds, still win), and Elasticsearch's own CPU over the window (its node stats).

Run beside the benchmark's stack (stopped service, the stack kept: ./bench/run ... --keep-stack), for example
    python3 es-updates.py 100 25 17      # 100 changes a second for 25 s, 17 a bulk
and change the index's settings between runs with
    curl -XPUT localhost:19200/profiles/_settings -H 'Content-Type: application/json' \\
         -d '{"index": {"refresh_interval": "5s"}}'
(put back "500ms", what migrate sets, afterwards)."""
import json
import random
import sys
import time
import urllib.request

ES = "http://localhost:19200"
rate = int(sys.argv[1]) if len(sys.argv) > 1 else 100
seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
per_bulk = int(sys.argv[3]) if len(sys.argv) > 3 else 17


def request(method, path, body=None, content_type="application/json"):
    data = body.encode() if isinstance(body, str) else body
    req = urllib.request.Request(ES + path, data=data, method=method, headers={"Content-Type": content_type})
    with urllib.request.urlopen(req) as response:
        return json.load(response)


# 5,000 documents picked at random, with their versions
hits = request("POST", "/profiles/_search", json.dumps({"size": 5000, "version": True, "query": {
    "function_score": {"random_score": {"seed": int(time.time())}}}}))["hits"]["hits"]
docs = {h["_id"]: [h["_version"], h["_source"]] for h in hits}
ids = list(docs)


def stats():
    node = list(request("GET", "/_nodes/stats/process,indices")["nodes"].values())[0]
    indices = node["indices"]
    return (node["process"]["cpu"]["total_in_millis"], indices["refresh"]["total"],
            indices["refresh"]["total_time_in_millis"], indices["merges"]["total_time_in_millis"])


before = stats()
start = time.time()
sent = 0
due = start
while time.time() - start < seconds:
    lines = []
    for _ in range(per_bulk):
        pid = random.choice(ids)
        docs[pid][0] += 1
        lines.append(json.dumps({"index": {"_index": "profiles", "_id": pid, "version": docs[pid][0],
                                           "version_type": "external"}}))
        lines.append(json.dumps(docs[pid][1]))
    request("POST", "/_bulk", "\n".join(lines) + "\n", "application/x-ndjson")
    sent += per_bulk
    due += per_bulk / rate
    if due > time.time():
        time.sleep(due - time.time())
after = stats()
elapsed = time.time() - start
refreshes = after[1] - before[1]
print("%d changes in %.1f s (%.0f/s), %d a bulk: Elasticsearch %.3f cores, %.2f ms of CPU a change; %d refreshes "
      "(%.0f ms each), merges %d ms" % (sent, elapsed, sent / elapsed, per_bulk, (after[0] - before[0]) / 1000 / elapsed,
                                        (after[0] - before[0]) / sent, refreshes,
                                        (after[2] - before[2]) / max(1, refreshes), after[3] - before[3]))
