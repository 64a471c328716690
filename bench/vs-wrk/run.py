#!/usr/bin/env python3
"""tcpload runner vs Debian's wrk against a loopback nginx, HTTP keep-alive, 13-byte file.

Runs A B A B ... (at least 3 pairs) per setting and prints requests/s, client CPU seconds (user+sys of
the whole process, JVM start included) and requests per client CPU-second, with the runner/wrk ratio.
The runner runs with the launcher's JVM flags and a static AppCDS archive of the classes a 2 s run
against the same nginx loads, made before the measured runs as the launcher makes its own.

    python3 bench/vs-wrk/run.py [--pairs 3] [--durations 10,30] [--settings 1x10,1x100,2x1000]
        [--extra 'RUNNER FLAGS'] [--metrics] [--launcher] [--close] [--port 18080]

With --launcher, the runner runs as `./tcpload runner` runs it (the command's JVM options, its
start-up archive and main class), after one call that readies the command.

With --close, both clients send `Connection: close`: nginx answers and closes, so every request
opens a connection of its own (short connections, as wrktcp's default mode makes them).

With --metrics, each pair also runs the runner with --metrics-port 0 (in alternating order), to show
what serving Prometheus metrics costs in requests per CPU-second.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--durations", default="10,30")
    parser.add_argument("--settings", default="1x10,1x100,2x1000")
    parser.add_argument("--extra", default="", help="extra runner flags, e.g. '--pipeline 4'")
    parser.add_argument("--port", type=int, default=18080, help="the loopback nginx's port")
    parser.add_argument("--launcher", action="store_true",
                        help="run the runner as ./tcpload runner (the command's JVM and archive)"
                             " instead of java -jar on the runner's jar")
    parser.add_argument("--close", action="store_true",
                        help="both clients send Connection: close: one request per connection")
    parser.add_argument("--metrics", action="store_true",
                        help="in each pair also run the runner with --metrics-port 0 (order alternating)"
                             " and print its requests per CPU-second against the runner without")
    args = parser.parse_args()
    metrics_flags = ["--metrics-port", "0"]
    benchlib.require("wrk", "nginx")
    nginx = benchlib.Nginx(port=args.port)
    try:
        if args.launcher:
            startup = benchlib.launcher_startup_report()
            runner = benchlib.launcher
        else:
            startup = benchlib.jvm_startup_report(
                ["-t1", "-c10", "-d2s"] + args.extra.split()
                + (metrics_flags if args.metrics else []) + [nginx.url()])
            runner = benchlib.java
        print("%-12s %4s | %10s %7s %9s | %10s %7s %9s | %6s %6s" % (
            "setting", "dur", "wrk req/s", "cpu-s", "req/cpu-s", "tcp req/s", "cpu-s", "req/cpu-s",
            "ratio", "excl.start"))
        for duration in [int(d) for d in args.durations.split(",")]:
            for setting in args.settings.split(","):
                threads, connections = setting.split("x")
                flags = ["-t" + threads, "-c" + connections, "-d%ds" % duration]
                if args.close:
                    flags += ["-H", "Connection: close"]
                wrk_runs, tcp_runs, metrics_runs = [], [], []
                for pair in range(args.pairs):
                    out, _, cpu, _, _ = benchlib.timed(["wrk"] + flags + [nginx.url()])
                    check(out)
                    wrk_runs.append((benchlib.requests_done(out), cpu, benchlib.rps(out)))
                    variants = [(tcp_runs, [])]
                    if args.metrics:
                        variants.append((metrics_runs, metrics_flags))
                        if pair % 2:
                            variants.reverse()
                    for runs, more in variants:
                        cmd = runner(*(flags + args.extra.split() + more + [nginx.url()]))
                        out, _, cpu, _, _ = benchlib.timed(cmd)
                        check(out)
                        runs.append((benchlib.requests_done(out), cpu, benchlib.rps(out)))
                w = summarize(wrk_runs)
                t = summarize(tcp_runs)
                excl = t[0] * duration / max(t[1] - startup, 1e-9) / (w[2])
                pairs = sorted((rt / ct) / (rw / cw) for (rt, ct, _), (rw, cw, _)
                               in zip(tcp_runs, wrk_runs))
                print("%-12s %3ds | %10.0f %7.2f %9.0f | %10.0f %7.2f %9.0f | %5.2fx %5.2fx"
                      " | pairs %s" % (
                          "-t%s -c%s" % (threads, connections), duration, w[0], w[1], w[2], t[0],
                          t[1], t[2], t[2] / w[2], excl, " ".join("%.2f" % r for r in pairs)))
                if args.metrics:
                    m = summarize(metrics_runs)
                    print("%-12s %3ds   with --metrics-port: %9.0f req/cpu-s, %.3fx the runner without"
                          " (pairwise median %.3fx)" % (
                              "", duration, m[2], m[2] / t[2], statistics.median(
                                  (rm / cm) / (rt / ct) for (rm, cm, _), (rt, ct, _)
                                  in zip(metrics_runs, tcp_runs))))
    finally:
        nginx.stop()


def check(report):
    if benchlib.non_2xx(report):
        sys.exit("nginx answered with errors:\n" + report)


def summarize(runs):
    """Medians of requests/s, CPU seconds and requests per CPU-second."""
    per_cpu = [r / c for r, c, _ in runs]
    return (statistics.median(x[2] for x in runs), statistics.median(x[1] for x in runs),
            statistics.median(per_cpu))


if __name__ == "__main__":
    main()
