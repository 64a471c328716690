#!/usr/bin/env python3
"""The floor under the runner: a minimal keep-alive client on Netty, beside wrk and the runner.

FloorClient.java is the least a client on Netty's io_uring transport can do (one handler per
connection, no decoder, no statistics, no pacing); RingFloorClient.java does the same without
Netty's channels, submitting its own operations to Netty's io_uring event loop. Alternating rounds
of wrk, each floor client with C1 alone and with both compilers, and `./tcpload runner`, all `-t1
-c100` against the loopback nginx, print requests per client CPU-second (JVM start-up included),
each against wrk's in the same round, and user and system time per request. If a floor is no
better than the runner, what keeps the runner below wrk is the layers under it and the JVM, not the
runner's own work; the gap between the two floors is what Netty's channel layer costs.

    python3 bench/netty-floor/run.py [--rounds 5] [--seconds 10] [--port 18080]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import benchlib  # noqa: E402

CLASSES = os.path.join(benchlib.OUT, "netty-floor")


def compile_client():
    if not os.path.exists(benchlib.RUNNER_JAR):
        sys.exit("no %s: ./mvnw -q -B package -DskipTests" % benchlib.RUNNER_JAR)
    os.makedirs(CLASSES, exist_ok=True)
    subprocess.run(["javac", "-d", CLASSES, "-cp", benchlib.RUNNER_JAR,
                    os.path.join(HERE, "FloorClient.java"),
                    os.path.join(HERE, "RingFloorClient.java")], check=True, capture_output=True)


def measure(cmd):
    """(requests, user seconds, system seconds) of one whole process; benchlib.timed gives only
    their sum."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s%s" % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
    return (benchlib.requests_done(proc.stdout), after.ru_utime - before.ru_utime,
            after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--port", type=int, default=18080)
    args = parser.parse_args()
    benchlib.require("wrk", "nginx", "javac")
    compile_client()
    nginx = benchlib.Nginx(port=args.port)
    try:
        benchlib.launcher_startup_report()
        classpath = ["-cp", benchlib.RUNNER_JAR + os.pathsep + CLASSES]
        usage = [str(args.port), "100", str(args.seconds * 1000)]
        floor = classpath + ["FloorClient"] + usage
        ring = classpath + ["RingFloorClient"] + usage
        clients = [
            ("wrk", ["wrk", "-t1", "-c100", "-d%ds" % args.seconds, nginx.url()]),
            ("floor, C1", ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"] + floor),
            ("floor, C1+C2", ["java", "-XX:+UseSerialGC"] + floor),
            ("ring, C1", ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"] + ring),
            ("ring, C1+C2", ["java", "-XX:+UseSerialGC"] + ring),
            ("tcpload runner", benchlib.launcher("-t1", "-c100", "-d%ds" % args.seconds,
                                                 nginx.url())),
        ]
        results = {name: [] for name, _ in clients}
        for _ in range(args.rounds):
            wrk_rate = None
            for name, cmd in clients:
                requests, user, system = measure(cmd)
                rate = requests / (user + system)
                wrk_rate = wrk_rate or rate
                results[name].append((rate / wrk_rate, user / requests * 1e6,
                                      system / requests * 1e6, rate))
        print("%-15s | %9s | %6s | %-28s | %9s | %9s" % (
            "client", "req/cpu-s", "/ wrk", "per round, lowest first", "user µs", "sys µs"))
        for name, _ in clients:
            rows = results[name]
            print("%-15s | %9.0f | %5.2fx | %-28s | %9.2f | %9.2f" % (
                name, statistics.median(r[3] for r in rows), statistics.median(r[0] for r in rows),
                " ".join("%.2f" % r for r in sorted(r[0] for r in rows)),
                statistics.median(r[1] for r in rows), statistics.median(r[2] for r in rows)))
    finally:
        nginx.stop()


if __name__ == "__main__":
    main()
