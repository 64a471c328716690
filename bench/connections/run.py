#!/usr/bin/env python3
"""10,000 keep-alive connections held against a loopback nginx: every connection must complete
requests (nginx logs the connection number of every request), with no socket errors; prints the
runner's peak RSS.

    python3 bench/connections/run.py [--connections 10000] [--seconds 20]
"""
import argparse
import os
import resource
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=10000)
    parser.add_argument("--seconds", type=int, default=20)
    args = parser.parse_args()
    benchlib.require("nginx")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    nginx = benchlib.Nginx(port=18081, access_log="$connection")
    try:
        out, err, cpu, wall, _ = benchlib.timed(benchlib.java(
            "-t2", "-c%d" % args.connections, "-d%ds" % args.seconds, "--timeout", "30s",
            "--json", "-", nginx.url()))
        report = out.split("{", 1)[0]
        print(report)
        connections = nginx.connections_served()
        print("connections that served requests (nginx log): %d of %d" % (connections, args.connections))
        print("socket errors: %s" % benchlib.socket_errors(report))
        print("non-2xx/3xx responses: %d" % benchlib.non_2xx(report))
        print("runner CPU-s: %.2f" % cpu)
        print("runner peak RSS: %.1f MiB" % (peak_rss_kib() / 1024))
    finally:
        nginx.stop()


def peak_rss_kib():
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


if __name__ == "__main__":
    main()
