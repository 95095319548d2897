#!/usr/bin/env python3
"""Where Elasticsearch's CPU goes while a command runs: each of its threads' user and kernel time, from /proc, summed
by thread pool (the names from jstack). Run as root beside the benchmark's stack, for example
    python3 es-threads.py $(pgrep -f org.elasticsearch.bootstrap) python3 es-updates.py 100 40 20
Its output for issue 41: es-threads.txt."""
import collections
import os
import re
import subprocess
import sys
import time

pid, command = sys.argv[1], sys.argv[2:]


def thread_names():
    names = {}
    for line in subprocess.run(["jstack", pid], capture_output=True, text=True).stdout.splitlines():
        found = re.match(r'^"([^"]*)".*nid=(0x[0-9a-f]+|\d+)', line)
        if found:
            nid = found.group(2)
            names[str(int(nid, 16) if nid.startswith("0x") else int(nid))] = found.group(1)
    return names


def ticks():
    """user and kernel clock ticks of each thread"""
    per_thread = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            fields = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            per_thread[tid] = (int(fields[11]), int(fields[12]))
        except OSError:
            pass  # a thread that ended
    return per_thread


names = thread_names()
before, started = ticks(), time.time()
output = subprocess.run(command, capture_output=True, text=True).stdout
after, seconds = ticks(), time.time() - started
names.update(thread_names())
groups = collections.Counter()
for tid, (user, kernel) in after.items():
    name = re.sub(r"\d+$", "", re.sub(r"#\d+", "#", re.sub(r"elasticsearch\[[^\]]*\]", "es", names.get(tid, "?"))))
    user_before, kernel_before = before.get(tid, (0, 0))
    groups[name + " user"] += user - user_before
    groups[name + " kernel"] += kernel - kernel_before
hz = os.sysconf("SC_CLK_TCK")
total = sum(groups.values())
print(output.strip())
print("Elasticsearch's threads: %.2f s of CPU in %.1f s (%.2f cores)" % (total / hz, seconds, total / hz / seconds))
for name, count in groups.most_common(8):
    print("%7.2f s  %5.1f %%  %s" % (count / hz, 100 * count / max(total, 1), name))
