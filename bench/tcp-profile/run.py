#!/usr/bin/env python3
"""The runner against the demo target with bank.ini (XML, COUNTER + CONNECTID + DATETIME + FILE,
short connections): requests per client CPU-second, and the runner's RSS after 10 s and after 60 s
(it must not grow: no memory per request).

    python3 bench/tcp-profile/run.py [--seconds 60] [--threads 1] [--connections 20]
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.path.join(HERE, "bank.ini")


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--connections", type=int, default=20)
    args = parser.parse_args()
    benchlib.require()
    server = subprocess.Popen(benchlib.java("serve", PROFILE, "--threads", "1"),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()  # "serving ..." once it listens
        runner = subprocess.Popen(
            benchlib.java("-t%d" % args.threads, "-c%d" % args.connections,
                          "-d%ds" % args.seconds, PROFILE),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=HERE)
        samples = {}
        start = time.monotonic()
        for mark in (10, args.seconds - 1):
            time.sleep(max(0, start + mark - time.monotonic()))
            samples[mark] = (rss_kib(runner.pid), cpu_seconds(runner.pid))
        out, _ = runner.communicate(timeout=args.seconds + 60)
        done = benchlib.requests_done(out)
        cpu = samples[args.seconds - 1][1]
        print(out)
        print("requests: %d  runner CPU-s (to second %d): %.2f  requests per CPU-second: %.0f"
              % (done, args.seconds - 1, cpu, done / max(cpu, 1e-9)))
        for mark, (rss, _) in samples.items():
            print("RSS after %2d s: %6.1f MiB" % (mark, rss / 1024))
        growth = samples[args.seconds - 1][0] - samples[10][0]
        print("RSS growth 10 s -> %d s: %+.1f MiB" % (args.seconds - 1, growth / 1024))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
