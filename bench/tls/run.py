#!/usr/bin/env python3
"""tcpload runner vs Debian's wrk over TLS against a loopback nginx (one worker, TLS 1.2 and 1.3,
session cache and tickets on), with certificates made by openssl in a temporary folder.

Five measures, each as alternating pairs (wrk, runner, wrk, runner, ...), whole processes timed
(JVM start-up included), medians with the spread of the per-pair ratios:

  keep-alive       HTTPS keep-alive, -t1 -c100: requests per client CPU-second.
  new, resumed     one request per connection (wrk: -H 'Connection: close'; the runner: a profile
                   without keepalive): new TLS connections per client CPU-second, sessions resumed.
  new, full        the same with every handshake a full one on the runner's side
                   (tls_session_reuse = false); wrk cannot be told not to resume, so its figure is
                   the resumed one again: nginx's log says which were resumed.
  new, full both   the same against a second nginx that resumes no session (no cache, no
  (full-both)      tickets), so that wrk's handshakes are full ones too: like for like.
  new, full        again, against `openssl s_time -new` (full-s_time): the same OpenSSL as wrk's,
  (s_time)         one connection after another, each a full handshake (verified) and one GET;
                   one connection at a time.

Also the runner's handshake p50/p99 (from its --json) for the new-connection measures, and, with
--providers, the runner on BoringSSL against the JDK's provider for full handshakes.

    python3 bench/tls/run.py [--pairs 5] [--keepalive-seconds 30] [--new-seconds 15]
        [--connections 100] [--providers] [--launcher]
        [--only keepalive,resumed,full,full-both,full-s_time]
        [--groups X25519,P-256,P-384]

With --launcher, the runner runs as `./tcpload runner` runs it (its JVM options, among them the
compilers the command picks for the run's shape and length, and its start-up archive).

With --groups LIST, the new-connection profiles set tls_groups = LIST. Without it the runner offers
BoringSSL's default key shares, a post-quantum hybrid (X25519MLKEM768) beside X25519, which Debian's
nginx (OpenSSL 3.0) does not know; wrk, on the same OpenSSL, sends an X25519 share alone, so
--groups X25519,P-256,P-384 makes both sides of a pair do the same handshake.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402


def openssl(folder, *args):
    subprocess.run(["openssl"] + list(args), cwd=folder, check=True, capture_output=True, timeout=60)


def make_certificates(folder):
    openssl(folder, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.crt", "-days", "2", "-subj", "/CN=bench CA")
    openssl(folder, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out",
            "server.csr", "-subj", "/CN=localhost")
    with open(os.path.join(folder, "server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl(folder, "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "server.ext", "-out", "server.crt")


class TlsNginx:
    """nginx with ssl on 127.0.0.1:port, logging whether each request's session was resumed."""

    def __init__(self, certs, port=18443, resumption=True):
        self.port = port
        self.dir = tempfile.mkdtemp(prefix="bench-tls-nginx-")
        os.chmod(self.dir, 0o755)
        with open(os.path.join(self.dir, "index.html"), "w") as f:
            f.write("Hello, world\n")
        self.log = os.path.join(self.dir, "access.log")
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write("""
worker_processes 1;
pid %(d)s/nginx.pid;
error_log %(d)s/error.log crit;
daemon off;
events { worker_connections 20000; multi_accept on; }
worker_rlimit_nofile 40000;
http {
  log_format r '$ssl_session_reused';
  access_log %(log)s r buffer=64k;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  ssl_protocols TLSv1.2 TLSv1.3;
  %(resumption)s
  server {
    listen 127.0.0.1:%(port)d ssl backlog=4096;
    ssl_certificate %(c)s/server.crt;
    ssl_certificate_key %(c)s/server.key;
    location / { root %(d)s; }
  }
}
""" % {"d": self.dir, "log": self.log, "port": port, "c": certs,
       "resumption": "ssl_session_cache shared:bench:10m; ssl_session_tickets on;" if resumption
       else "ssl_session_cache off; ssl_session_tickets off;"})
        self.proc = subprocess.Popen(["nginx", "-c", conf, "-p", self.dir],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import time
        time.sleep(0.5)
        if self.proc.poll() is not None:
            sys.exit("nginx did not start (port %d busy?)" % port)

    def url(self):
        return "https://127.0.0.1:%d/index.html" % self.port

    def resumed_since(self, offset):
        """(requests logged, of which resumed) after byte offset of the log; and the new offset."""
        subprocess.run(["kill", "-USR1", str(self.proc.pid)])  # reopen: flushes the buffer
        import time
        time.sleep(0.3)
        with open(self.log) as f:
            f.seek(offset)
            lines = f.read().split()
            end = f.tell()
        return len(lines), sum(1 for line in lines if line == "r"), end

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def profile(folder, port, certs, reuse, groups=None):
    path = os.path.join(folder, "new-%s.ini" % ("resumed" if reuse else "full"))
    with open(path, "w") as f:
        f.write("\n".join([
            "[common]", "host = 127.0.0.1", "port = %d" % port,
            "http_line = GET /index.html HTTP/1.1", "tls = true",
            "tls_ca = %s/ca.crt" % certs, "tls_session_reuse = %s" % ("true" if reuse else "false"),
            "tls_groups = %s" % groups if groups else "",
            "[request]", "req_head = Host: 127.0.0.1", "req_body =",
            "[response]", "rsp_code_type = fixed", "rsp_code_location = body",
            "rsp_code_location_tag = 1 5", "rsp_code_success = Hello", "rsp_http_status = 200", ""]))
    return path


def run_wrk(flags, url, extra=()):
    out, _, cpu, _, _ = benchlib.timed(["wrk"] + flags + list(extra) + [url])
    if benchlib.non_2xx(out):
        sys.exit("nginx answered with errors:\n" + out)
    return benchlib.requests_done(out), cpu, out


RUNNER = benchlib.java


def run_runner(flags, target, json_path, extra=()):
    out, err, cpu, _, _ = benchlib.timed(
        RUNNER(*(flags + list(extra) + ["--json=" + json_path, target])))
    with open(json_path) as f:
        result = json.load(f)
    if result["counts"]["errors"] or result["counts"]["failures"]:
        sys.exit("the runner counted errors:\n" + out + err)
    return result["counts"]["requests"], cpu, result


def run_s_time(port, certs, seconds):
    """openssl s_time -new: one connection after another, each a full handshake and one GET."""
    out, _, cpu, _, _ = benchlib.timed([
        "openssl", "s_time", "-connect", "127.0.0.1:%d" % port, "-new", "-time", str(seconds),
        "-www", "/index.html", "-verify", "2", "-CAfile", os.path.join(certs, "ca.crt")])
    match = re.search(r"(\d+) connections in [\d.]+ real seconds", out)
    if not match:
        sys.exit("s_time printed no count:\n" + out[-2000:])
    return int(match.group(1)), cpu, out


def measure(name, pairs, wrk_cmd, runner_cmd, nginx, peer="wrk"):
    """Alternating pairs; prints medians, the spread of the ratios and what nginx resumed."""
    w, r, ratios, handshakes, resumed = [], [], [], [], {peer: [0, 0], "runner": [0, 0]}
    offset = nginx.resumed_since(0)[2]
    for i in range(pairs):
        order = [(peer, wrk_cmd), ("runner", runner_cmd)]
        if i % 2:
            order.reverse()
        got = {}
        for who, cmd in order:
            got[who] = cmd()
            logged, reused, offset = nginx.resumed_since(offset)
            resumed[who][0] += logged
            resumed[who][1] += reused
        wrk_per_cpu = got[peer][0] / got[peer][1]
        runner_per_cpu = got["runner"][0] / got["runner"][1]
        w.append(wrk_per_cpu)
        r.append(runner_per_cpu)
        ratios.append(runner_per_cpu / wrk_per_cpu)
        hs = got["runner"][2]["handshakeUs"]
        handshakes.append((hs["count"], hs["p50"], hs["p99"]))
    print("%-14s | %-6s %9.0f req/cpu-s | runner %9.0f req/cpu-s | ratio %5.2fx (pairs %s)"
          % (name, peer, statistics.median(w), statistics.median(r), statistics.median(ratios),
             ", ".join("%.2f" % x for x in ratios)))
    print("%-14s   runner handshakes per run %d, p50 %.2f ms, p99 %.2f ms (medians);"
          " nginx saw resumed: %s %d of %d, runner %d of %d"
          % ("", statistics.median(h[0] for h in handshakes),
             statistics.median(h[1] for h in handshakes) / 1000,
             statistics.median(h[2] for h in handshakes) / 1000,
             peer, resumed[peer][1], resumed[peer][0], resumed["runner"][1],
             resumed["runner"][0]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--keepalive-seconds", type=int, default=30)
    parser.add_argument("--new-seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--providers", action="store_true",
                        help="also compare the runner on BoringSSL with the JDK's provider")
    parser.add_argument("--only", default="keepalive,resumed,full,full-s_time")
    parser.add_argument("--launcher", action="store_true",
                        help="run the runner as ./tcpload runner (the command's JVM options and"
                             " archive) instead of java -jar on the runner's jar")
    parser.add_argument("--groups", default=None,
                        help="tls_groups for the new-connection profiles, e.g. X25519,P-256,P-384")
    args = parser.parse_args()
    global RUNNER
    if args.launcher:
        RUNNER = benchlib.launcher
    benchlib.require("wrk", "nginx", "openssl")
    folder = tempfile.mkdtemp(prefix="bench-tls-")
    make_certificates(folder)
    nginx = TlsNginx(folder)
    json_path = os.path.join(folder, "r.json")
    try:
        ca = "--tls-ca=" + os.path.join(folder, "ca.crt")
        if args.launcher:
            benchlib.launcher_startup_report()
        else:
            benchlib.jvm_startup_report(["-t1", "-c10", "-d2s", ca, nginx.url()])
        c = "-c%d" % args.connections
        only = args.only.split(",")
        if "keepalive" in only:
            flags = ["-t1", c, "-d%ds" % args.keepalive_seconds]
            measure("keep-alive", args.pairs,
                    lambda: run_wrk(flags, nginx.url()),
                    lambda: run_runner(flags + [ca], nginx.url(), json_path), nginx)
        flags = ["-t1", c, "-d%ds" % args.new_seconds]
        for reuse in (True, False):
            name = "resumed" if reuse else "full"
            if name not in only:
                continue
            prof = profile(folder, nginx.port, folder, reuse, args.groups)
            measure("new, " + name, args.pairs,
                    lambda: run_wrk(flags, nginx.url(), ["-H", "Connection: close"]),
                    lambda: run_runner(flags, prof, json_path), nginx)
        if "full-s_time" in only:
            # wrk cannot be told not to resume; openssl s_time -new can, on the same OpenSSL.
            prof = profile(folder, nginx.port, folder, False, args.groups)
            measure("new, full", args.pairs,
                    lambda: run_s_time(nginx.port, folder, args.new_seconds),
                    lambda: run_runner(flags, prof, json_path), nginx, peer="s_time")
        if "full-both" in only:
            # The server resumes no session, so both sides make every handshake a full one: the
            # like-for-like measure of new connections with resumption off.
            plain = TlsNginx(folder, port=nginx.port + 1, resumption=False)
            try:
                prof = profile(folder, plain.port, folder, False, args.groups)
                measure("new, full both", args.pairs,
                        lambda: run_wrk(flags, plain.url(), ["-H", "Connection: close"]),
                        lambda: run_runner(flags, prof, json_path), plain)
            finally:
                plain.stop()
        if args.providers:
            # Without tls_groups: the JDK's provider cannot be given any.
            prof = profile(folder, nginx.port, folder, False)
            per = {"openssl": [], "jdk": []}
            for i in range(args.pairs):
                order = ["openssl", "jdk"] if i % 2 == 0 else ["jdk", "openssl"]
                for p in order:
                    n, cpu, _ = run_runner(flags, prof, json_path, ["--tls-provider=" + p])
                    per[p].append(n / cpu)
            print("providers, new full handshakes: openssl %.0f, jdk %.0f conn/cpu-s (%.2fx)"
                  % (statistics.median(per["openssl"]), statistics.median(per["jdk"]),
                     statistics.median(per["openssl"]) / statistics.median(per["jdk"])))
    finally:
        nginx.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
