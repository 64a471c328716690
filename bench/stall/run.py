#!/usr/bin/env python3
"""The coordinated-omission experiment: a target that stalls S = 500 ms every P = 2 s, loaded at a
constant 2,000 requests/s for 10 s. Prints the runner's corrected (from intended send time) and
uncorrected percentiles beside the analytic truth for an open-loop client: for q > 1 - S/P the
q-quantile is S - (1 - q) * P (p90 = 300, p99 = 480, p99.9 = 498, max = 500 ms), and the mean is
S^2 / 2P = 62.5 ms, plus the base latency.

The target is the runner's own demo target (`serve --stall-every-ms 2000 --stall-for-ms 500`),
answering bench/stall/tiny.ini; the run has a 2 s warm-up that is left out of every figure.

Two things make the measurement match the experiment. Connections: the truth is that of an open-loop
client, which needs a connection for every request a stall holds (rate x S = 1,000), so the run
opens 1,200. Phase: requests whose answers a stall still holds when the run ends are never answered
within it and so not counted (as in wrk2), which would drop part of the slowest population; the
runner is therefore launched so that its measured seconds begin and end between stalls, whole
periods long, and the bench checks that from the runner's own start time (and tries again if not).

    python3 bench/stall/run.py [--rate 2000] [--seconds 10] [--connections 1200]
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

HERE = os.path.dirname(os.path.abspath(__file__))
PERIOD_MS, STALL_MS = 2000, 500


def truth(q):
    return max(0.0, STALL_MS - (1 - q) * PERIOD_MS)


def measured_run(profile, args, origin_s):
    """One rate-mode run whose measured seconds should begin mid-way between two stalls: launched
    at the phase that, after the JVM's start, the connections' opening and the warm-up, puts them
    there."""
    launch_phase_ms = 600  # about 650 ms of start and opening before the 2 s warm-up
    now_phase_ms = (time.time() - origin_s) * 1000 % PERIOD_MS
    time.sleep(((launch_phase_ms - now_phase_ms) % PERIOD_MS) / 1000.0)
    with tempfile.TemporaryDirectory() as tmp:
        result = os.path.join(tmp, "result.json")
        benchlib.timed(benchlib.java(
            "-t1", "-c%d" % args.connections, "-d%ds" % args.seconds, "--warmup", "2s", "-R",
            str(args.rate), "--json", result, profile))
        with open(result) as f:
            return json.load(f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=2000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=1200)
    args = parser.parse_args()
    benchlib.require()
    profile = os.path.join(HERE, "tiny.ini")
    server = subprocess.Popen(
        benchlib.java("serve", profile, "--threads", "1", "--stall-every-ms", str(PERIOD_MS),
                      "--stall-for-ms", str(STALL_MS)), stdout=subprocess.PIPE, text=True)
    try:
        server.stdout.readline()
        # The stalls are counted from the server's start, just before it says it listens.
        origin_s = time.time()
        for attempt in range(3):
            data = measured_run(profile, args, origin_s)
            start_phase_ms = (data["startEpochUs"] / 1e6 - origin_s) * 1000 % PERIOD_MS
            end_phase_ms = (start_phase_ms + data["runtimeUs"] / 1000) % PERIOD_MS
            if STALL_MS + 20 <= start_phase_ms and STALL_MS + 20 <= end_phase_ms:
                break
            print("measured seconds began at %.0f ms and ended at %.0f ms into a stall period:"
                  " a stall was cut, running again" % (start_phase_ms, end_phase_ms))
        print("measured seconds from %.0f to %.0f ms into a %d ms period (stalls 0-%d ms)" % (
            start_phase_ms, end_phase_ms, PERIOD_MS, STALL_MS))
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
