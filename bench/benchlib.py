"""Shared pieces of the benchmarks: a loopback nginx, timed child processes, report parsing.

Benchmarks send traffic to 127.0.0.1 only and stop everything they start.
"""
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER_JAR = os.path.join(ROOT, "runner", "target", "tcpload-runner.jar")


def require(*commands):
    missing = [c for c in commands if shutil.which(c) is None]
    if missing:
        sys.exit("missing %s: apt-get install wrk nginx-light" % ", ".join(missing))
    if not os.path.exists(RUNNER_JAR):
        sys.exit("build first: ./mvnw -q -B package -DskipTests")


class Nginx:
    """nginx on 127.0.0.1:port serving a 13-byte file with keep-alive, one worker."""

    def __init__(self, port=18080, workers=1, access_log=None):
        self.port = port
        self.log = None
        self.dir = tempfile.mkdtemp(prefix="bench-nginx-")
        os.chmod(self.dir, 0o755)  # nginx's workers run as an unprivileged user
        with open(os.path.join(self.dir, "index.html"), "w") as f:
            f.write("Hello, world\n")  # 13 bytes
        log_line = "access_log off;"
        if access_log:
            self.log = os.path.join(self.dir, "access.log")
            log_line = "log_format c '%s'; access_log %s c;" % (access_log, self.log)
        conf = os.path.join(self.dir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(
                """
worker_processes %d;
pid %s/nginx.pid;
error_log %s/error.log crit;
daemon off;
events { worker_connections 20000; multi_accept on; }
worker_rlimit_nofile 40000;
http {
  %s
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  server {
    listen 127.0.0.1:%d backlog=4096;
    location / { root %s; }
  }
}
"""
                % (workers, self.dir, self.dir, log_line, port, self.dir)
            )
        self.proc = subprocess.Popen(
            ["nginx", "-c", conf, "-p", self.dir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(0.5)
        if self.proc.poll() is not None:
            sys.exit("nginx did not start (port %d busy?)" % port)

    def url(self):
        return "http://127.0.0.1:%d/index.html" % self.port

    def connections_served(self):
        """Distinct connection numbers in the access log (needs access_log="$connection")."""
        with open(self.log) as f:
            return len(set(line.strip() for line in f if line.strip()))

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def timed(cmd, timeout=600):
    """Runs cmd; returns (stdout, stderr, cpu seconds user+sys, wall seconds, max RSS KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit("%s failed (%d):\n%s%s" % (" ".join(cmd), proc.returncode, proc.stdout, proc.stderr))
    return proc.stdout, proc.stderr, cpu, wall, after.ru_maxrss


def requests_done(report):
    m = re.search(r"^\s*(\d+) requests in", report, re.M)
    if not m:
        sys.exit("no request count in:\n" + report)
    return int(m.group(1))


def rps(report):
    m = re.search(r"^Requests/sec:\s+([\d.]+)", report, re.M)
    return float(m.group(1)) if m else 0.0


def non_2xx(report):
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", report)
    return int(m.group(1)) if m else 0


def socket_errors(report):
    m = re.search(r"Socket errors: (.*)", report)
    return m.group(1) if m else "none"


OUT = os.path.join(ROOT, "bench", "out")
CDS_ARCHIVE = os.path.join(OUT, "tcpload-runner.jsa")
JVM_FLAGS = ["-XX:+UseSerialGC"] + os.environ.get("TCPLOAD_JAVA_OPTS", "").split()


def java(*args):
    """The runner as the tcpload launcher starts it: serial GC, TCPLOAD_JAVA_OPTS and, once made, an
    AppCDS archive."""
    flags = list(JVM_FLAGS)
    if os.path.exists(CDS_ARCHIVE) and os.path.getmtime(CDS_ARCHIVE) > os.path.getmtime(RUNNER_JAR):
        flags += ["-XX:SharedArchiveFile=" + CDS_ARCHIVE, "-Xshare:auto"]
    return ["java"] + flags + ["-jar", RUNNER_JAR] + list(args)


LAUNCHER = os.path.join(ROOT, "tcpload")


def launcher(*args):
    """The runner through the tcpload command, `./tcpload runner ARGS`: the JVM options, the
    start-up archive and the main class the command gives it."""
    return [LAUNCHER, "runner"] + list(args)


def launcher_startup_report():
    """Readies the tcpload command (it builds itself and records its start-up archive on first use,
    which no measured run must include) and prints the start-up cost of `tcpload runner`."""
    subprocess.run(launcher("--version"), capture_output=True, timeout=900)
    samples = [timed(launcher("--version"))[2] for _ in range(3)]
    print("JVM start-up (tcpload runner --version): %.2f CPU-s, with the command's archive (used"
          " below)" % min(samples))
    return min(samples)


def make_cds_archive(training_args=None):
    """Makes a static AppCDS archive of the classes a short run loads, as the launcher makes its
    own after a build: a run writes the names of the classes it loads, and a JVM that runs none of
    the code (-Xshare:dump) archives them. By default a demo-target run, or the given runner
    arguments, so that a benchmark's archive holds the classes of the runs it measures."""
    os.makedirs(OUT, exist_ok=True)
    if os.path.exists(CDS_ARCHIVE):
        os.remove(CDS_ARCHIVE)
    if training_args is None:
        profile = os.path.join(ROOT, "examples", "profiles", "quickstart.ini")
        training_args = ["--demo-target", "-k", "-t1", "-c10", "-d2s", profile]
    classes = CDS_ARCHIVE + ".classes"
    subprocess.run(["java"] + JVM_FLAGS + ["-XX:DumpLoadedClassList=" + classes, "-jar", RUNNER_JAR]
                   + list(training_args), capture_output=True, timeout=120)
    subprocess.run(["java"] + JVM_FLAGS + ["-Xshare:dump", "-XX:SharedClassListFile=" + classes,
                    "-XX:SharedArchiveFile=" + CDS_ARCHIVE, "-cp", RUNNER_JAR],
                   capture_output=True, timeout=120)
    if os.path.exists(classes):
        os.remove(classes)


def jvm_startup_cpu():
    """CPU seconds of starting the runner and exiting at once: the fixed cost of every run."""
    samples = [timed(java("--version"))[2] for _ in range(3)]
    return min(samples)


def jvm_startup_report(training_args=None):
    """Prints the start-up cost without and with the AppCDS archive; leaves the archive in use."""
    if os.path.exists(CDS_ARCHIVE):
        os.remove(CDS_ARCHIVE)
    plain = jvm_startup_cpu()
    make_cds_archive(training_args)
    archived = jvm_startup_cpu()
    print("JVM start-up (runner --version): %.2f CPU-s plain, %.2f CPU-s with AppCDS (used below)"
          % (plain, archived))
    return archived
