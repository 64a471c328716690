package io.tcpload.operator.bench;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.tcpload.operator.OperatorSettings;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.kubelet.OperatorHarness;
import io.tcpload.operator.results.StartSkew;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The operator's figures, against the mock API server and the kubelet double:
 *
 * <ol>
 *   <li>operator start to ready: a separate operator JVM, from launch to {@code /readyz} 200;
 *   <li>that JVM's RSS when idle, with 0 and then 50 finished tests in its cache;
 *   <li>resource created to Job created, 10 times;
 *   <li>start skew of 10 runners (the double runs them all in this process), 5 times;
 *   <li>one test of {@value #MANY_RUNNERS} runners: created to started, load end to Succeeded, the
 *       largest status written, the operator's writes, and meanwhile how long a one-runner test in
 *       another namespace waits for its Job.
 * </ol>
 *
 * <p>Run with {@code bench/operator/run.sh}; prints one line per figure.
 */
public final class OperatorBench {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Held here: the logging framework keeps only weak references, and would forget the level. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG =
            java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    /**
     * The chart's javaOptions as they act under its 512 MiB limit: MaxRAMPercentage=75 gives a 384
     * MiB heap, and the default initial heap is 1/64 of the limit (8 MiB), where on this machine it
     * would be 1/64 of all its memory.
     */
    private static final String DEFAULT_JAVA_OPTIONS =
            "-Xms8m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
                    + " -XX:Tier3InvocationThreshold=2000 -XX:Tier3MinInvocationThreshold=1000"
                    + " -XX:Tier3CompileThreshold=20000 -XX:Tier3BackEdgeThreshold=600000"
                    + " -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30"
                    + " -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError";

    /** Tests of 10 runners whose start skew is measured. */
    private static final int SKEW_TESTS = 5;

    /** How long the operator is left alone before its RSS is read: idle, as between tests. */
    private static final long IDLE_MS = 12_000;

    /** Runners of the one large test. */
    private static final int MANY_RUNNERS = 100;

    private OperatorBench() {}

    public static void main(String[] args) throws Exception {
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
        Path work = Files.createTempDirectory("tcpload-operator-bench");
        try (OperatorHarness world = new OperatorHarness(work)) {
            int readyOnly = List.of(args).indexOf("--ready-only");
            if (readyOnly >= 0) {
                int times = readyOnly + 1 < args.length ? Integer.parseInt(args[readyOnly + 1]) : 5;
                readyTimes(world, times);
                System.exit(0);
            }
            separateOperator(world);
            if (List.of(args).contains("--idle-only")) {
                System.exit(0);
            }
            jobCreatedLatency(world);
            startSkew(world);
            manyRunners(world);
        }
        System.exit(0);
    }

    /** An operator in its own JVM, as in a pod: start to ready, then idle RSS. */
    private static void separateOperator(OperatorHarness world) throws Exception {
        System.out.printf("operator JVM options: %s%n", javaOptions());
        int port = freePort();
        long launchedNs = System.nanoTime();
        Process operator = launch(world, port);
        try {
            long readyMs = awaitReady(operator, port, launchedNs);
            System.out.printf("operator start to ready (new JVM): %d ms%n", readyMs);
            Thread.sleep(IDLE_MS);
            System.out.printf("idle RSS, 0 tests: %.1f MiB%n", rssMib(operator.pid()));
            world.createNamespace("bench-idle");
            for (int i = 0; i < 50; i++) {
                finishedTest(world, "bench-idle", "done-" + i);
            }
            waitUntilCached(URI.create("http://127.0.0.1:" + port + "/metrics"), 50);
            Thread.sleep(IDLE_MS);
            System.out.printf("idle RSS, 50 finished tests: %.1f MiB%n", rssMib(operator.pid()));
        } finally {
            stop(operator);
        }
    }

    /**
     * Start to ready alone, {@code times} times, each in a new JVM: one launch varies by hundreds
     * of milliseconds with what else the machine does, so a comparison needs a median.
     */
    private static void readyTimes(OperatorHarness world, int times) throws Exception {
        System.out.printf("operator JVM options: %s%n", javaOptions());
        List<Long> readyMs = new ArrayList<>();
        List<Long> cpuMs = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            int port = freePort();
            long launchedNs = System.nanoTime();
            Process operator = launch(world, port);
            try {
                readyMs.add(awaitReady(operator, port, launchedNs));
                cpuMs.add(cpuMs(operator.pid()));
            } finally {
                stop(operator);
            }
        }
        System.out.printf(
                "operator start to ready (new JVM), %d launches: %s ms; median %d ms%n",
                times, readyMs, median(readyMs));
        // CPU time varies less than wall time with what else the machine runs: it compares two
        // builds on a busy machine where the wall times cannot.
        System.out.printf(
                "operator CPU time until ready (user + system): %s ms; median %d ms%n",
                cpuMs, median(cpuMs));
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** User plus system CPU time of process {@code pid} so far, from {@code /proc}. */
    private static long cpuMs(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // The fields after the command's closing parenthesis; utime and stime are the 12th and
        // 13th of them, in clock ticks of 10 ms.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }

    private static String javaOptions() {
        // As in the chart's pod: 75% of its 512 MiB limit for the heap.
        return System.getenv().getOrDefault("OPERATOR_JAVA_OPTIONS", DEFAULT_JAVA_OPTIONS);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Process launch(OperatorHarness world, int port) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(javaOptions().trim().split("\\s+")));
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Dkubernetes.master=" + world.client.getMasterUrl(),
                        "-Dkubernetes.auth.tryKubeConfig=false",
                        "-Dkubernetes.auth.tryServiceAccount=false",
                        "io.tcpload.operator.OperatorMain"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("TCPLOAD_HTTP_PORT", Integer.toString(port));
        builder.environment().put("TCPLOAD_WATCH_NAMESPACES", "bench-idle");
        // What the chart renders by default: the defaults are parsed and checked at start-up.
        builder.environment().put(OperatorSettings.RUNNER_DEFAULTS_VARIABLE, "{}");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return builder.start();
    }

    /** Milliseconds from {@code launchedNs} to the first 200 from {@code /readyz}. */
    private static long awaitReady(Process operator, int port, long launchedNs) throws Exception {
        URI ready = URI.create("http://127.0.0.1:" + port + "/readyz");
        while (!answers200(ready)) {
            if (!operator.isAlive()
                    || System.nanoTime() - launchedNs > TimeUnit.SECONDS.toNanos(60)) {
                throw new IllegalStateException("the operator did not become ready");
            }
            Thread.sleep(10);
        }
        return (System.nanoTime() - launchedNs) / 1_000_000;
    }

    private static void stop(Process operator) throws InterruptedException {
        operator.destroy();
        if (!operator.waitFor(10, TimeUnit.SECONDS)) {
            operator.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** A test that finished long ago: its status says Succeeded with a full summary. */
    private static void finishedTest(OperatorHarness world, String namespace, String name) {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        test.setSpec(spec(world, 1));
        TcpLoadTest created =
                world.client
                        .resources(TcpLoadTest.class)
                        .inNamespace(namespace)
                        .resource(test)
                        .create();
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Succeeded);
        status.setObservedGeneration(created.getMetadata().getGeneration());
        status.setCompletionTime("2026-01-01T00:00:00Z");
        ResultSummary summary = new ResultSummary();
        summary.setRequests(123_456L);
        summary.setTps(4_115.2);
        status.setSummary(summary);
        created.setStatus(status);
        world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .resource(created)
                .updateStatus();
    }

    /** Until the operator's {@code tcpload_tests} gauge counts {@code count} finished tests. */
    private static void waitUntilCached(URI metrics, int count) throws Exception {
        String wanted = "tcpload_tests{phase=\"Succeeded\"} " + count + ".0";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            String text =
                    HTTP.send(
                                    HttpRequest.newBuilder(metrics)
                                            .timeout(Duration.ofSeconds(2))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
            if (text.lines().anyMatch(line -> line.equals(wanted))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the operator did not take the finished tests in");
    }

    private static void jobCreatedLatency(OperatorHarness world) throws Exception {
        String namespace = "bench-latency";
        world.createNamespace(namespace);
        BlockingQueue<Long> jobsSeenNs = new ArrayBlockingQueue<>(100);
        List<Long> latenciesMs = new ArrayList<>();
        try (Watch watch =
                world.client
                        .batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .watch(
                                new Watcher<Job>() {
                                    @Override
                                    public void eventReceived(Action action, Job job) {
                                        if (action == Action.ADDED) {
                                            jobsSeenNs.add(System.nanoTime());
                                        }
                                    }

                                    @Override
                                    public void onClose(WatcherException cause) {}
                                })) {
            for (int i = 0; i < 10; i++) {
                TcpLoadTest test = new TcpLoadTest();
                test.setMetadata(
                        new ObjectMetaBuilder()
                                .withName("latency-" + i)
                                .withNamespace(namespace)
                                .build());
                TcpLoadTestSpec spec = spec(world, 1);
                spec.setDuration("500ms");
                test.setSpec(spec);
                long createdNs = System.nanoTime();
                world.client
                        .resources(TcpLoadTest.class)
                        .inNamespace(namespace)
                        .resource(test)
                        .create();
                Long seenNs = jobsSeenNs.poll(10, TimeUnit.SECONDS);
                if (seenNs == null) {
                    throw new IllegalStateException("no Job within 10 s");
                }
                latenciesMs.add((seenNs - createdNs) / 1_000_000);
            }
        }
        Collections.sort(latenciesMs);
        System.out.printf(
                "resource created to Job created: median %d ms, max %d ms (10 tests)%n",
                latenciesMs.get(latenciesMs.size() / 2), latenciesMs.get(latenciesMs.size() - 1));
    }

    /**
     * Start skew of 10 runners, over {@link #SKEW_TESTS} tests: the status's figure, and the same
     * figure recomputed from every runner's own {@code --json} file, read once all ten pods have
     * exited (the status is written before the runners are let go, so earlier some files are
     * missing, and those are the late starters' runners, which finish last).
     */
    private static void startSkew(OperatorHarness world) throws Exception {
        String namespace = "bench-skew";
        world.createNamespace(namespace);
        List<String> statusMs = new ArrayList<>();
        List<String> ownMs = new ArrayList<>();
        List<String> lateMs = new ArrayList<>();
        for (int t = 0; t < SKEW_TESTS; t++) {
            String name = "skew-" + t;
            TcpLoadTest test = new TcpLoadTest();
            test.setMetadata(
                    new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
            TcpLoadTestSpec spec = spec(world, 10);
            spec.setConnections(10);
            test.setSpec(spec);
            world.client
                    .resources(TcpLoadTest.class)
                    .inNamespace(namespace)
                    .resource(test)
                    .create();
            TcpLoadTestStatus status = awaitFinished(world, namespace, name);
            if (status.getPhase() != Phase.Succeeded) {
                throw new IllegalStateException(
                        "the 10-runner test did not succeed: " + status.getMessage());
            }
            List<RunSummary> own = ownResults(world, name + "-runners-", 10);
            long skewUs = StartSkew.spreadUs(own).orElseThrow();
            long latestUs = StartSkew.lastStartEpochUs(own) - status.getStartAtMs() * 1000;
            statusMs.add(Long.toString(status.getStartSkewMs()));
            ownMs.add(String.format(Locale.ROOT, "%.3f", skewUs / 1000.0));
            lateMs.add(String.format(Locale.ROOT, "%.3f", latestUs / 1000.0));
        }
        System.out.printf(
                "start skew, 10 runners, %d tests: %s ms in the status; %s ms from the runners'"
                        + " own results; last runner began %s ms after the instant%n",
                SKEW_TESTS,
                String.join(", ", statusMs),
                String.join(", ", ownMs),
                String.join(", ", lateMs));
    }

    /**
     * One test of {@link #MANY_RUNNERS} runners (real runners, in this process, one connection
     * each), watched every 20 ms; while it runs, one-runner tests in another namespace are created
     * one after another, and the wait for each one's Job is timed.
     */
    private static void manyRunners(OperatorHarness world) throws Exception {
        String namespace = "bench-many";
        world.createNamespace(namespace);
        world.createNamespace("bench-beside");
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName("many").withNamespace(namespace).build());
        TcpLoadTestSpec spec = spec(world, MANY_RUNNERS);
        spec.setDuration("5s");
        test.setSpec(spec);
        world.clearOperatorRequests();
        long createdNs = System.nanoTime();
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).resource(test).create();
        long startedNs = 0;
        long largestStatusBytes = 0;
        int beside = 0;
        List<Long> besideMs = new ArrayList<>();
        TcpLoadTestStatus status = null;
        long deadline = createdNs + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            TcpLoadTest seen =
                    world.client
                            .resources(TcpLoadTest.class)
                            .inNamespace(namespace)
                            .withName("many")
                            .get();
            status = seen.getStatus();
            if (status != null) {
                largestStatusBytes =
                        Math.max(
                                largestStatusBytes,
                                io.fabric8.kubernetes.client.utils.Serialization.asJson(status)
                                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)
                                        .length);
                if (startedNs == 0 && status.getStartAtMs() != null) {
                    startedNs = System.nanoTime();
                }
                if (status.getPhase() != null && status.getPhase().finished()) {
                    break;
                }
            }
            if (startedNs != 0 && beside < 3) {
                besideMs.add(besideJobWaitMs(world, "beside-" + beside++));
            }
            Thread.sleep(20);
        }
        long finishedMs = System.currentTimeMillis();
        if (status == null || status.getPhase() != Phase.Succeeded) {
            throw new IllegalStateException(
                    "the "
                            + MANY_RUNNERS
                            + "-runner test did not succeed: "
                            + (status == null ? "no status" : status.getMessage()));
        }
        long loadEndMs = status.getStartAtMs() + 5_000;
        long writes =
                world.operatorRequests().stream()
                        .filter(request -> !request.method().equals("GET"))
                        .filter(request -> request.path().contains("/namespaces/" + namespace))
                        .count();
        System.out.printf(
                "%d runners: created to start instant %d ms; load end to Succeeded seen %d ms"
                        + " (polled every 20 ms); largest status %.1f KiB; %d operator writes;"
                        + " a one-runner test beside it waited %s ms for its Job%n",
                MANY_RUNNERS,
                (startedNs - createdNs) / 1_000_000,
                finishedMs - loadEndMs,
                largestStatusBytes / 1024.0,
                writes,
                besideMs);
    }

    /** Creates a one-runner test in {@code bench-beside}; the milliseconds until its Job exists. */
    private static long besideJobWaitMs(OperatorHarness world, String name) throws Exception {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(
                new ObjectMetaBuilder().withName(name).withNamespace("bench-beside").build());
        TcpLoadTestSpec spec = spec(world, 1);
        spec.setDuration("500ms");
        test.setSpec(spec);
        long createdNs = System.nanoTime();
        world.client
                .resources(TcpLoadTest.class)
                .inNamespace("bench-beside")
                .resource(test)
                .create();
        long deadline = createdNs + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!world.client
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace("bench-beside")
                    .withLabel(io.tcpload.operator.children.DesiredResources.TEST_LABEL, name)
                    .list()
                    .getItems()
                    .isEmpty()) {
                return (System.nanoTime() - createdNs) / 1_000_000;
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("no Job for " + name + " within 30 s");
    }

    private static TcpLoadTestStatus awaitFinished(
            OperatorHarness world, String namespace, String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            TcpLoadTestStatus status =
                    world.client
                            .resources(TcpLoadTest.class)
                            .inNamespace(namespace)
                            .withName(name)
                            .get()
                            .getStatus();
            if (status != null && status.getPhase() != null && status.getPhase().finished()) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + " did not finish within 60 s");
    }

    /** The {@code --json} files of the pods named {@code prefix...}, once all have exited. */
    private static List<RunSummary> ownResults(OperatorHarness world, String prefix, int count)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<RunSummary> results =
                    world.kubelet.results().entrySet().stream()
                            .filter(entry -> entry.getKey().startsWith(prefix))
                            .map(entry -> JsonResult.read(entry.getValue()))
                            .toList();
            if (results.size() == count) {
                return results;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("not every runner of " + prefix + " exited within 30 s");
    }

    private static TcpLoadTestSpec spec(OperatorHarness world, int runners) {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(world.profile);
        spec.setRunners(runners);
        spec.setConnections(runners);
        spec.setDuration("2s");
        return spec;
    }

    private static boolean answers200(URI uri) {
        try {
            HttpResponse<Void> response =
                    HTTP.send(
                            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
                            HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (Exception e) {
            return false;
        }
    }

    private static double rssMib(long pid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }
}
