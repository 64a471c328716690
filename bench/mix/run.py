#!/usr/bin/env python3
"""What per-request statistics cost: the runner against the demo target with a 70/20/10 mix of
three named requests (mix.ini) and with one plain request of the same size (single.ini), keep-alive,
in turns; requests per runner CPU-second of each and their ratio (the mix's cost is 1 - ratio).

    python3 bench/mix/run.py [--seconds 10] [--rounds 3] [--connections 20]
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_seconds_of_children(before):
    usage = os.times()
    return (usage.children_user + usage.children_system) - before


def one_run(profile, seconds, connections):
    """Requests done and the runner's CPU-seconds for one run of `profile`."""
    before = os.times()
    start = before.children_user + before.children_system
    out = subprocess.run(
        benchlib.java("-t1", "-c%d" % connections, "-d%ds" % seconds, profile),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=HERE,
        timeout=seconds + 120).stdout
    return benchlib.requests_done(out), cpu_seconds_of_children(start)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=20)
    args = parser.parse_args()
    benchlib.require()
    single = os.path.join(HERE, "single.ini")
    mix = os.path.join(HERE, "mix.ini")
    server = subprocess.Popen(benchlib.java("serve", single, "--threads", "1"),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        server.stdout.readline()  # "serving ..." once it listens
        totals = {"single": [0, 0.0], "mix": [0, 0.0]}
        for round_number in range(1, args.rounds + 1):
            # Alternate the order, so that neither profile always runs on a warmer machine.
            order = [("single", single), ("mix", mix)]
            if round_number % 2 == 0:
                order.reverse()
            for name, profile in order:
                done, cpu = one_run(profile, args.seconds, args.connections)
                totals[name][0] += done
                totals[name][1] += cpu
                print("round %d %-6s requests %8d  runner CPU-s %6.2f  per CPU-second %8.0f"
                      % (round_number, name, done, cpu, done / max(cpu, 1e-9)))
        per_cpu = {name: done / max(cpu, 1e-9) for name, (done, cpu) in totals.items()}
        ratio = per_cpu["mix"] / per_cpu["single"]
        print("single: %.0f requests per CPU-second, mix: %.0f; ratio mix/single %.3f (cost %.1f%%)"
              % (per_cpu["single"], per_cpu["mix"], ratio, 100 * (1 - ratio)))
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
