#!/usr/bin/env python3
"""Capacity search against a target of known capacity, three times: the demo target with
`--workers 8 --service-time-ms 4` serves exactly 2,000 requests/s (eight workers of 4 ms from one
queue, in arrival order), and the runner searches it with `--search 'p99 < 50ms'`. Prints each
search's capacity, steps and wall time, how far below the true knee each one is (a search must never
report above it), and how well the three agree.

    python3 bench/capacity/run.py [--slo 'p99 < 50ms'] [--range 100:4000] [--step 5s]
                                  [--warmup 1s] [--first-warmup 5s] [--connections 256]
                                  [--repeats 3]

Everything runs on 127.0.0.1 and is stopped at the end.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

ROOT = benchlib.ROOT
PROFILE = os.path.join(ROOT, "examples", "profiles", "quickstart.ini")
WORKERS, SERVICE_MS = 8, 4
KNEE = WORKERS * 1000.0 / SERVICE_MS


def search(port, args):
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "search.json")
        start = time.monotonic()
        # Exit status 1 (no rate confirmed) and 2 (the range's minimum failed) still write the
        # result: the bench reports them as they ended.
        proc = subprocess.run(benchlib.java(
            "-t2", "-c%d" % args.connections, "-k", "--target", "127.0.0.1:%d" % port,
            "--search", args.slo, "--search-range", args.range, "--search-step", args.step,
            "--search-warmup", args.warmup, "--warmup", args.first_warmup, "--json", result,
            PROFILE),
            capture_output=True, text=True, timeout=1800)
        wall = time.monotonic() - start
        if not os.path.exists(result):
            sys.exit("the search wrote no result (%d):\n%s%s" % (
                proc.returncode, proc.stdout, proc.stderr))
        with open(result) as f:
            data = json.load(f)["search"]
    return data, wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--slo", default="p99 < 50ms")
    parser.add_argument("--range", default="100:4000")
    parser.add_argument("--step", default="5s")
    parser.add_argument("--warmup", default="1s")
    parser.add_argument("--first-warmup", default="5s")
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    benchlib.require()
    server = subprocess.Popen(
        benchlib.java("serve", PROFILE, "--port", "0", "--workers", str(WORKERS),
                      "--service-time-ms", str(SERVICE_MS)), stdout=subprocess.PIPE, text=True)
    try:
        banner = server.stdout.readline()
        port = int(banner.split(" on 127.0.0.1:")[1].split(" ")[0])
        print("target: %s" % banner.strip())
        found = []
        for run in range(1, args.repeats + 1):
            data, wall = search(port, args)
            capacity = data["capacity"]
            if data["end"] in ("found", "range_held"):
                found.append(capacity)
            print("search %d: %s, capacity %.0f/s (%.2f%% below the knee of %.0f/s), %d steps in"
                  " %.1f s (%.1f s a step)" % (
                      run, data["end"], capacity, (KNEE - capacity) / KNEE * 100, KNEE,
                      data["stepCount"], wall, wall / max(1, data["stepCount"])))
            for step in data["steps"]:
                print("    step %2d %-7s %7.0f/s achieved %7.1f/s p99 %8.2f ms backlog %d -> %d %s" % (
                    step["number"], step["kind"], step["targetRate"], step["achievedRate"],
                    step["p99Ms"], step["backlogAtMid"], step["backlogAtEnd"],
                    "held" if step["held"] else "failed: " + "; ".join(step["reasons"])))
        if not found:
            print("no search found a capacity")
            return
        low, high = min(found), max(found)
        print("capacities found: %s of %d searches: %s" % (
            len(found), args.repeats, ", ".join("%.0f" % c for c in found)))
        print("agreement: the highest is %.2f%% above the lowest (within 3%%: %s)" % (
            (high - low) / low * 100 if low else float("inf"), (high - low) <= 0.03 * low))
        print("never above the knee: %s; all within 5%% below it: %s" % (
            all(c <= KNEE for c in found), all(c >= 0.95 * KNEE for c in found)))
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
