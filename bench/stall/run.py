#!/usr/bin/env python3
"""The coordinated-omission experiment: a target that stalls S = 500 ms every P = 2 s, loaded at a
constant 2,000 requests/s for 10 s. Prints the runner's corrected (from intended send time) and
uncorrected percentiles beside the analytic truth for an open-loop client: for q > 1 - S/P the
q-quantile is S - (1 - q) * P (p90 = 300, p99 = 480, p99.9 = 498, max = 500 ms), and the mean is
S^2 / 2P = 62.5 ms, plus the base latency.

The target is the runner's own demo target (`serve --stall-every-ms 2000 --stall-for-ms 500`),
answering bench/stall/tiny.ini; the run has a 2 s warm-up that is left out of every figure.

    python3 bench/stall/run.py [--rate 2000] [--seconds 10] [--connections 50]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PERIOD_MS, STALL_MS = 2000, 500


def truth(q):
    return max(0.0, STALL_MS - (1 - q) * PERIOD_MS)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=50)
    args = parser.parse_args()
    benchlib.require()
    profile = os.path.join(HERE, "tiny.ini")
    server = subprocess.Popen(
        benchlib.java("serve", profile, "--threads", "1", "--stall-every-ms", str(PERIOD_MS),
                      "--stall-for-ms", str(STALL_MS)), stdout=subprocess.PIPE, text=True)
    try:
        server.stdout.readline()
        with tempfile.TemporaryDirectory() as tmp:
            result = os.path.join(tmp, "result.json")
            benchlib.timed(benchlib.java(
                "-t1", "-c%d" % args.connections, "-d%ds" % args.seconds, "--warmup", "2s", "-R", str(args.rate),
                "--json", result, profile))
            with open(result) as f:
                data = json.load(f)
        corrected = data["latencyUs"]
        uncorrected = data["rate"]["uncorrectedUs"]
        rows = [("p50", "p50", 0.50), ("p90", "p90", 0.90), ("p99", "p99", 0.99),
                ("p99.9", "p99_9", 0.999), ("max", "max", 1.0)]
        print("%-6s %12s %12s %10s %10s" % ("", "corrected", "uncorrected", "truth", "error"))
        for label, key, q in rows:
            c, u, t = corrected[key] / 1000.0, uncorrected[key] / 1000.0, truth(q)
            err = "%+.1f%%" % (100 * (c - t) / t) if t else ""
            print("%-6s %10.1fms %10.1fms %8.1fms %10s" % (label, c, u, t, err))
        mean_truth = STALL_MS ** 2 / (2.0 * PERIOD_MS)
        print("%-6s %10.1fms %10.1fms %8.1fms (+ base latency)" % (
            "mean", corrected["mean"] / 1000.0, uncorrected["mean"] / 1000.0, mean_truth))
        print("sent %d of %d planned; late > 1 ms: %d" % (
            data["rate"]["sent"], data["rate"]["planned"], data["rate"]["late"]))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
