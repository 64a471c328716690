package io.tcpload.runner.client;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.tcpload.runner.client.ProgressListener.Paced;
import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.decode.ResponseCodecs;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.PacedStats;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunTally;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.tls.ClientTls;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one load test: {@code threads} event loops, each with its share of the connections, for the
 * duration or until stopped, and returns the merged summary.
 *
 * <p>The calling thread is the collector: once a second it asks every loop, by a task on that loop,
 * for what it recorded since the last time, so the loops never share a counter or a histogram.
 */
public final class LoadEngine {
    private static final long LOOP_TASK_TIMEOUT_MS = 10_000;

    private final Profile profile;
    private final LoadConfig config;
    private final RequestMix requests;
    private final Transport transport;
    private final String targetName;
    private final String profileName;
    private final ClientTls tls;

    public LoadEngine(
            Profile profile, LoadConfig config, RequestTemplate template, Transport transport) {
        this(profile, config, RequestMix.single(template), transport);
    }

    /** An engine that sends {@code requests}: a profile's one request or its transaction mix. */
    public LoadEngine(
            Profile profile, LoadConfig config, RequestMix requests, Transport transport) {
        this(
                profile,
                config,
                requests,
                transport,
                profile.target().toString(),
                profile.displayName(),
                null);
    }

    private LoadEngine(
            Profile profile,
            LoadConfig config,
            RequestMix requests,
            Transport transport,
            String targetName,
            String profileName,
            ClientTls tls) {
        this.profile = profile;
        this.tls = tls;
        this.config = config;
        this.requests = requests;
        this.transport = transport;
        this.targetName = targetName;
        this.profileName = profileName;
    }

    /** The same engine, named differently in its banner and summary (a URL run names its URL). */
    public LoadEngine describedAs(String newTargetName, String newProfileName) {
        return new LoadEngine(
                profile, config, requests, transport, newTargetName, newProfileName, tls);
    }

    /**
     * The same engine speaking TLS through {@code newTls} (built once for the run; the caller
     * closes it after the run), or plain TCP with null.
     */
    public LoadEngine withTls(ClientTls newTls) {
        return new LoadEngine(
                profile, config, requests, transport, targetName, profileName, newTls);
    }

    /**
     * Runs the test to its end against one address.
     *
     * @param address the resolved target address
     * @param listener told about each second
     * @param control lets another thread end the run early
     */
    public RunSummary run(InetSocketAddress address, ProgressListener listener, RunControl control)
            throws InterruptedException {
        return run(address, listener, control, StartGate.immediate());
    }

    /**
     * Runs the test to its end against every address of {@code host}: the connections take them in
     * turn, and follow them as they change (the name is resolved again, at most once a second,
     * while connections reopen). The result counts what each address got ({@link
     * RunSummary#addresses}).
     *
     * @param host the target's name or IP literal
     * @param port the target's port
     * @param resolver where the addresses come from ({@link DnsTargetResolver} honours TTLs; {@link
     *     TargetResolver#system()} is the JDK's, whose answers live 30 seconds)
     * @throws UnknownHostException when {@code host} has no address at the start; nothing has run
     * @throws java.util.concurrent.CancellationException when the gate is cancelled first
     */
    public RunSummary run(
            String host,
            int port,
            TargetResolver resolver,
            ProgressListener listener,
            RunControl control,
            StartGate gate)
            throws InterruptedException, UnknownHostException {
        // The runners of a distributed run start the turn at their own connections, so that
        // together they cover every address even with fewer connections each than addresses.
        long firstTurn = (long) config.runnerIndex() * config.connections();
        try (TargetAddresses targets = TargetAddresses.resolve(host, port, resolver, firstTurn)) {
            return run(targets, listener, control, gate);
        }
    }

    /**
     * Runs the test to its end, beginning when {@code gate} opens. A gate that awaits its instant
     * arms the engine first: event loops up, connections open (each loop's share, within the
     * timeout) and nothing sent, so that at the instant each loop only has to send; the loops then
     * begin on their own at the instant, each on its own thread.
     *
     * @throws java.util.concurrent.CancellationException when the gate is cancelled first
     */
    public RunSummary run(
            InetSocketAddress address,
            ProgressListener listener,
            RunControl control,
            StartGate gate)
            throws InterruptedException {
        try (TargetAddresses targets = TargetAddresses.fixed(address)) {
            return run(targets, listener, control, gate);
        }
    }

    /**
     * Runs a stepped load against every address of {@code host}, beginning when {@code gate} opens:
     * the connections open first and stay open, and {@code steps} says each step's rate in turn (a
     * capacity search), each measured on its own. The run ends when {@code steps} has no more, or
     * at a stop (the step cut short by it is left out).
     *
     * @return this runner's result of each step, in order
     * @throws UnknownHostException when {@code host} has no address at the start; nothing has run
     * @throws java.util.concurrent.CancellationException when the gate is cancelled first
     * @throws IllegalStateException when the engine is not in rate mode
     */
    public List<RunSummary> runSteps(
            String host,
            int port,
            TargetResolver resolver,
            ProgressListener listener,
            RunControl control,
            StartGate gate,
            StepDriver steps)
            throws InterruptedException, UnknownHostException {
        if (!config.paced()) {
            throw new IllegalStateException("a stepped run needs rate mode");
        }
        long firstTurn = (long) config.runnerIndex() * config.connections();
        try (TargetAddresses targets = TargetAddresses.resolve(host, port, resolver, firstTurn)) {
            List<RunSummary> results = new ArrayList<>();
            run(
                    targets,
                    listener,
                    control,
                    gate,
                    collector -> {
                        collector.steps(listener, control, steps, results);
                        return null;
                    });
            return results;
        }
    }

    /** What a run does once its loops have begun. */
    @FunctionalInterface
    private interface Body {
        RunSummary run(Collector collector) throws InterruptedException;
    }

    private RunSummary run(
            TargetAddresses targets, ProgressListener listener, RunControl control, StartGate gate)
            throws InterruptedException {
        return run(targets, listener, control, gate, null);
    }

    private RunSummary run(
            TargetAddresses targets,
            ProgressListener listener,
            RunControl control,
            StartGate gate,
            Body body)
            throws InterruptedException {
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(
                        config.threads(),
                        new DefaultThreadFactory("tcpload-loop", true),
                        transport.ioHandlerFactory());
        List<LoopWorker> workers = new ArrayList<>(config.threads());
        try {
            // Derived from the spec once: every connection of every loop shares these parts.
            ResponseCodecs codecs =
                    requests.isMix()
                            ? ResponseCodecs.of(
                                    profile.response(),
                                    profile.mix().stream().map(NamedRequest::response).toList(),
                                    profile.request().http(),
                                    // A sign-on answers on a short connection too.
                                    !config.keepAlive() && !profile.hasSignOn())
                            : ResponseCodecs.of(
                                    profile.response(),
                                    profile.request().http(),
                                    !config.keepAlive());
            if (profile.request().head()) {
                // Every request of a profile shares its http_line, and so its method.
                codecs = codecs.answeringHead();
            }
            for (int i = 0; i < config.threads(); i++) {
                workers.add(
                        new LoopWorker(
                                (EventLoop) group.next(),
                                i,
                                config,
                                requests,
                                codecs,
                                transport,
                                targets,
                                tls));
            }
            Collector collector = new Collector(workers, targets, gate);
            if (gate.awaitsInstant() || (config.paced() && config.keepAlive())) {
                collector.arm(control);
            }
            listener.onReady();
            Start start = collector.begin(gate.awaitDeadlineNs(), gate);
            listener.onStart(start.firstEpochUs());
            if (body != null) {
                // A stepped run has no run-wide warm-up (each step has its own, and its own start
                // in its result): its measured load begins with its loops.
                listener.onMeasuredStart(start.firstEpochUs());
                return body.run(collector);
            }
            return collector.run(listener, control, start);
        } finally {
            // Closes still in progress must complete while their loop runs (see LoopWorker).
            for (LoopWorker worker : workers) {
                Future<Void> closed = worker.allClosed();
                if (closed != null) {
                    closed.awaitUninterruptibly(LOOP_TASK_TIMEOUT_MS);
                }
            }
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).await(LOOP_TASK_TIMEOUT_MS);
        }
    }

    /**
     * When the loops of a run began: the first and the last of them.
     *
     * @param firstNs the first loop's start on {@link System#nanoTime}, the run's clock
     * @param firstEpochUs the first loop's start on the wall clock, microseconds since the epoch
     * @param lastEpochUs the last loop's start on the wall clock
     */
    private record Start(long firstNs, long firstEpochUs, long lastEpochUs) {}

    /** What this run was asked to do, as the banner and the summary describe it. */
    public RunInfo info() {
        return new RunInfo(
                targetName,
                profileName,
                config.threads(),
                config.connections(),
                config.durationMs(),
                config.timeoutMs(),
                config.keepAlive(),
                config.pipeline(),
                transport.name());
    }

    /** The collector's state; used by the calling thread only. */
    private final class Collector {
        private final List<LoopWorker> workers;
        private final TargetAddresses targets;
        private final RunTally tally = new RunTally(config.paced());
        private final StartGate gate;

        Collector(List<LoopWorker> workers, TargetAddresses targets, StartGate gate) {
            this.workers = workers;
            this.targets = targets;
            this.gate = gate;
        }

        /**
         * Has every loop begin at {@code deadlineNs} and waits until they all have.
         *
         * @throws CancellationException when {@code gate} is cancelled before the instant
         */
        Start begin(long deadlineNs, StartGate gate) throws InterruptedException {
            List<ScheduledFuture<LoopWorker.Began>> begins = new ArrayList<>();
            for (LoopWorker worker : workers) {
                begins.add(worker.beginAt(deadlineNs, gate::epochUs));
            }
            // The loops keep the time themselves; this thread only waits, and gives up on a cancel.
            if (gate.awaitCancel(deadlineNs)) {
                begins.forEach(begin -> begin.cancel(false));
                throw new CancellationException("the start was cancelled");
            }
            long firstNs = Long.MAX_VALUE;
            long firstEpochUs = Long.MAX_VALUE;
            long lastEpochUs = Long.MIN_VALUE;
            for (ScheduledFuture<LoopWorker.Began> begin : begins) {
                LoopWorker.Began began = await(begin);
                firstNs = Math.min(firstNs, began.nanoTime());
                firstEpochUs = Math.min(firstEpochUs, began.epochUs());
                lastEpochUs = Math.max(lastEpochUs, began.epochUs());
            }
            return new Start(firstNs, firstEpochUs, lastEpochUs);
        }

        RunSummary run(ProgressListener listener, RunControl control, Start start)
                throws InterruptedException {
            long startNs = start.firstNs();
            if (config.warmupMs() > 0) {
                long warmedNs = startNs + TimeUnit.MILLISECONDS.toNanos(config.warmupMs());
                warmUp(startNs, warmedNs, listener, control);
                long measuredStartNs = System.nanoTime();
                long measuredEpochUs = gate.epochUs();
                onLoops(worker -> worker.restartClock(measuredStartNs));
                // The one start of the measured run: the live stats and the summary tell the same.
                listener.onMeasuredStart(measuredEpochUs);
                return measure(
                        measuredStartNs,
                        new Start(measuredStartNs, measuredEpochUs, measuredEpochUs),
                        listener,
                        control);
            }
            listener.onMeasuredStart(start.firstEpochUs());
            return measure(startNs, start, listener, control);
        }

        /**
         * Waits out the warm-up, from {@code startNs} to {@code warmedNs}, telling {@code listener}
         * the connections open at once and then once a second, so that the live stats show them
         * while none of the warm-up's figures are collected. A stop ends the warm-up, and the
         * measured run as soon as it begins.
         */
        private void warmUp(
                long startNs, long warmedNs, ProgressListener listener, RunControl control)
                throws InterruptedException {
            for (int second = 0; ; second++) {
                long tickNs = Math.min(warmedNs, startNs + TimeUnit.SECONDS.toNanos(second));
                if (control.awaitStop(tickNs) || tickNs >= warmedNs) {
                    return;
                }
                listener.onWarmingUp(openConnections());
            }
        }

        /** Connections open over every loop, each loop asked by a task on it. */
        private int openConnections() throws InterruptedException {
            int open = 0;
            for (LoopWorker worker : workers) {
                open += await(worker.loop().submit(() -> worker.stats().openConnections()));
            }
            return open;
        }

        /** The measured run, from {@code startNs} to the end of the duration or a stop. */
        private RunSummary measure(
                long startNs, Start start, ProgressListener listener, RunControl control)
                throws InterruptedException {
            return measure(
                    tally,
                    config.schedule(),
                    config.staged(),
                    config.durationMs(),
                    true,
                    startNs,
                    start,
                    listener,
                    control);
        }

        /**
         * One measured stretch into {@code into}, from {@code startNs} for {@code durationMs} or to
         * a stop: the whole run, or ({@code stopAtEnd} false) one step of a stepped run, after
         * which the loops go on with their connections open.
         */
        private RunSummary measure(
                RunTally into,
                RateSchedule schedule,
                boolean staged,
                long durationMs,
                boolean stopAtEnd,
                long startNs,
                Start start,
                ProgressListener listener,
                RunControl control)
                throws InterruptedException {
            long endNs = startNs + TimeUnit.MILLISECONDS.toNanos(durationMs);
            // Each loop ends its load itself at the end; the collector's stop below only makes
            // sure (and ends a run stopped early).
            if (stopAtEnd) {
                for (LoopWorker worker : workers) {
                    worker.stopAt(endNs);
                }
            }
            boolean stopped = false;
            long secondStartNs = startNs;
            for (int second = 1; !stopped; second++) {
                long tickNs = Math.min(endNs, startNs + TimeUnit.SECONDS.toNanos(second));
                boolean stopAsked = control.awaitStop(tickNs);
                // The last second ends at the end of the run, or at a stop: it may be shorter than
                // a second, and its rates are over its own length.
                long secondEndNs = stopAsked ? Math.min(System.nanoTime(), tickNs) : tickNs;
                long durationUs = Math.max(1, (secondEndNs - secondStartNs) / 1000);
                secondStartNs = secondEndNs;
                stopped = stopAsked || tickNs >= endNs;
                if (stopped && (stopAtEnd || stopAsked)) {
                    onLoops(LoopWorker::stop);
                }
                into.beginSecond();
                // One loop at a time, each on its own thread: the tally is not shared at once.
                for (LoopWorker worker : workers) {
                    await(worker.loop().submit(() -> into.drain(worker.stats())));
                }
                Paced paced = null;
                if (config.paced()) {
                    for (LoopWorker worker : workers) {
                        await(worker.loop().submit(() -> into.drainPaced(worker.pacer().stats())));
                    }
                    double rate = schedule.rateAt(tickNs - startNs) / config.runnerCount();
                    paced = new Paced(into.secondSent(), into.secondLate(), rate);
                }
                SecondSample sample = into.endSecond(second, durationUs);
                if (sample != null) {
                    listener.onSecond(
                            new Progress(
                                    sample,
                                    into.total(),
                                    into.secondLatency(),
                                    into.secondConnect(),
                                    into.secondHandshake(),
                                    into.secondErrors(),
                                    into.openConnections(),
                                    paced,
                                    into.secondByRequest()));
                }
            }
            long runtimeNs =
                    stopAtEnd
                            ? loadRuntimeNs(startNs)
                            : Math.min(System.nanoTime(), endNs) - startNs;
            return into.summary(
                    info(),
                    runtimeNs / 1000,
                    start.firstEpochUs(),
                    start.lastEpochUs(),
                    config.paced() ? rateSummary(into, schedule, staged, runtimeNs) : null,
                    targets.names(),
                    requests.names());
        }

        /**
         * The steps of a stepped run, each a constant rate on the open connections: its warm-up
         * (every loop's clock, figures and schedule begun again, the figures then dropped), then
         * its measured stretch (begun again once more), into a tally of its own. The loops stop
         * after the last step, or at a stop.
         */
        void steps(
                ProgressListener listener,
                RunControl control,
                StepDriver driver,
                List<RunSummary> results)
                throws InterruptedException {
            try {
                Optional<RunSummary> previous = Optional.empty();
                while (!control.stopRequested()) {
                    Optional<StepOrder> next = driver.next(previous);
                    if (next.isEmpty() || control.stopRequested()) {
                        return;
                    }
                    StepOrder order = next.get();
                    if (order.warmupMs() > 0) {
                        long warmStartNs = System.nanoTime();
                        RateSchedule warm =
                                RateSchedule.constant(order.ratePerSecond(), order.warmupMs());
                        onLoops(worker -> worker.restartClock(warmStartNs, warm));
                        if (control.awaitStop(
                                warmStartNs + TimeUnit.MILLISECONDS.toNanos(order.warmupMs()))) {
                            return;
                        }
                    }
                    long stepStartNs = System.nanoTime();
                    long stepEpochUs = gate.epochUs();
                    RateSchedule schedule =
                            RateSchedule.constant(order.ratePerSecond(), order.durationMs());
                    onLoops(worker -> worker.restartClock(stepStartNs, schedule));
                    RunSummary step =
                            measure(
                                    new RunTally(true),
                                    schedule,
                                    false,
                                    order.durationMs(),
                                    false,
                                    stepStartNs,
                                    new Start(stepStartNs, stepEpochUs, stepEpochUs),
                                    listener,
                                    control);
                    if (control.stopRequested()) {
                        return; // cut short: its figures would judge less than a step
                    }
                    results.add(step);
                    previous = Optional.of(step);
                }
            } finally {
                onLoops(LoopWorker::stop);
            }
        }

        /**
         * How long the load itself lasted: from {@code startNs} to the last loop's stop, leaving
         * out closing the connections, stopping the loops and collecting their figures (which with
         * many loops and connections on a busy machine take seconds). Call after every loop has run
         * its stop.
         */
        private long loadRuntimeNs(long startNs) {
            long lastStopNs = Long.MIN_VALUE;
            for (LoopWorker worker : workers) {
                lastStopNs = Math.max(lastStopNs, worker.stoppedNs());
            }
            return Math.max(
                    0, (lastStopNs == Long.MIN_VALUE ? System.nanoTime() : lastStopNs) - startNs);
        }

        /**
         * Arms the loops before the start: opens every connection and waits until all are open (or
         * the timeout passes, or a stop), so that the first second is sent like any other. Without
         * keep-alive in rate mode, where each send connects, only the loops are readied.
         */
        private void arm(RunControl control) throws InterruptedException {
            onLoops(LoopWorker::open);
            if (config.paced() && !config.keepAlive()) {
                return;
            }
            long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.timeoutMs());
            while (System.nanoTime() < deadlineNs && !control.stopRequested()) {
                if (openConnections() >= config.connections()) {
                    return;
                }
                if (control.awaitStop(Math.min(deadlineNs, System.nanoTime() + 5_000_000L))) {
                    return;
                }
            }
        }

        /** Rate mode: the summary's wrk2 part, this runner's share of the schedule. */
        private RateSummary rateSummary(
                RunTally into, RateSchedule schedule, boolean staged, long runtimeNs)
                throws InterruptedException {
            List<PacedStats.StageTally> tallies = List.of();
            if (staged) {
                List<PacedStats.StageTally> sums =
                        PacedStats.StageTally.forStages(schedule.stages().size());
                for (LoopWorker worker : workers) {
                    // One loop at a time: the tallies are not shared between threads.
                    await(worker.loop().submit(() -> worker.pacer().stats().addStagesTo(sums)));
                }
                tallies = sums;
            }
            return into.rateSummary(
                    schedule,
                    staged,
                    config.runnerIndex(),
                    config.runnerCount(),
                    tallies,
                    runtimeNs);
        }

        private void onLoops(java.util.function.Consumer<LoopWorker> action)
                throws InterruptedException {
            List<Future<?>> futures = new ArrayList<>();
            for (LoopWorker worker : workers) {
                futures.add(worker.loop().submit(() -> action.accept(worker)));
            }
            for (Future<?> future : futures) {
                await(future);
            }
        }

        private <T> T await(Future<T> future) throws InterruptedException {
            try {
                return future.get(LOOP_TASK_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException("event loop task failed", e.getCause());
            } catch (TimeoutException e) {
                throw new IllegalStateException("an event loop did not answer in time", e);
            }
        }
    }
}
