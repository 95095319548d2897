#!/usr/bin/env python3
"""Where the service's CPU goes in a GET by pid: the execution samples of a Flight Recorder recording of a benchmark run
(`jfr print --json` of JDK 21 or later, whose `jfr` prints JSON; the benchmark's own JVM is 17), on the request
threads (Jetty's `dw-*`), the searches and matches of the warm-up left out, grouped by the innermost frame outside the
JDK (which library was at work) and by the innermost class of ours on the stack (what of ours it was for):
    BENCH_JAVA_OPTS='-XX:StartFlightRecording=filename=/tmp/get.jfr,settings=profile' \\
        ./bench/run --profiles 1000000 --reuse --only reads --keep-stack --warmup 15 --duration 30 --out /tmp/getprof
    jfr print --json --stack-depth 64 --events jdk.ExecutionSample /tmp/get.jfr > /tmp/get.json
    python3 get-profile.py /tmp/get.json"""
import collections
import json
import sys

events = json.load(open(sys.argv[1]))["recording"]["events"]
library = collections.Counter()
ours = collections.Counter()
samples = 0


def package(frame):
    parts = frame.split("/")
    return "/".join(parts[:3]) if parts[0] in ("org", "com", "io", "ch") else "/".join(parts[:2])


for event in events:
    thread = event["values"]["sampledThread"].get("javaName") or ""
    if not thread.startswith("dw-"):
        continue
    frames = [f["method"]["type"]["name"] + "." + f["method"]["name"] for f in event["values"]["stackTrace"]["frames"]]
    if any("SearchResource" in f or "MatchResource" in f for f in frames):
        continue
    samples += 1
    library[package(next((f for f in frames if not f.startswith(("java/", "jdk/", "sun/"))), frames[0]))] += 1
    own = next((f for f in frames if f.startswith("io/profilestore")), None)
    ours[own.split(".")[0].replace("io/profilestore/", "") if own else "(none of ours)"] += 1
print("samples on the service's request threads (dw-*), searches and matches left out:", samples)
print("-- by the innermost non-JDK frame's package")
for name, count in library.most_common(14):
    print("%5d %5.1f%% %s" % (count, 100 * count / samples, name))
print("-- by the innermost class of ours on the stack")
for name, count in ours.most_common(16):
    print("%5d %5.1f%% %s" % (count, 100 * count / samples, name))
