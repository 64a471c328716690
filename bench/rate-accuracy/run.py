#!/usr/bin/env python3
"""Constant-rate accuracy against a loopback nginx (HTTP keep-alive): for each rate, the sends
achieved against the sends requested, and how late sends left against their intended times
(p50, p99, max), from the runner's own --json result.

    python3 bench/rate-accuracy/run.py [--rates 1000,10000,30000] [--seconds 10] [--connections 100]
        [--warmup 3s]

The warm-up (left out of every figure) keeps the JIT compiler's first seconds out of the send lag.
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rates", default="1000,10000,30000")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--warmup", default="3s", help="runner --warmup (0 for none)")
    args = parser.parse_args()
    benchlib.require("nginx")
    nginx = benchlib.Nginx(port=18083)
    try:
        print("%8s | %9s %9s %8s | %10s %10s %10s | %s" % (
            "rate/s", "requested", "sent", "achieved", "lag p50", "lag p99", "lag max", "late >1ms"))
        for rate in [int(r) for r in args.rates.split(",")]:
            with tempfile.TemporaryDirectory() as tmp:
                result = os.path.join(tmp, "result.json")
                out, _, cpu, _, _ = benchlib.timed(benchlib.java(
                    "-t%d" % args.threads, "-c%d" % args.connections, "-d%ds" % args.seconds,
                    "-R", str(rate), "--warmup", args.warmup, "--json", result, nginx.url()))
                with open(result) as f:
                    data = json.load(f)
            r = data["rate"]
            lag = r["lagUs"]
            requested = rate * args.seconds
            print("%8d | %9d %9d %7.3f%% | %8dus %8dus %8dus | %d (CPU %.1fs)" % (
                rate, requested, r["sent"], 100.0 * r["sent"] / requested, lag["p50"], lag["p99"],
                lag["max"], r["late"], cpu))
    finally:
        nginx.stop()


if __name__ == "__main__":
    main()
