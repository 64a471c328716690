package io.tcpload.runner.testing;

import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.client.LoadEngine;
import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.client.RunControl;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.client.TargetResolver;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.tls.ClientTls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/** Runs the real engine in-process against a loopback target, bounded in time. */
public final class EngineRun {
    private EngineRun() {}

    /** Runs for the config's duration. */
    public static RunSummary run(Profile profile, LoadConfig config) throws Exception {
        return run(profile, config, () -> false);
    }

    /**
     * Runs until the config's duration is over or {@code enough} holds, whichever comes first; the
     * config's duration bounds the run in every case.
     */
    public static RunSummary run(Profile profile, LoadConfig config, BooleanSupplier enough)
            throws Exception {
        return run(profile, config, ProgressListener.NONE, enough);
    }

    /** Runs for the config's duration, telling {@code listener} about each second. */
    public static RunSummary run(Profile profile, LoadConfig config, ProgressListener listener)
            throws Exception {
        return run(profile, config, listener, () -> false);
    }

    /** As {@link #run(Profile, LoadConfig, BooleanSupplier)}, telling {@code listener}. */
    public static RunSummary run(
            Profile profile, LoadConfig config, ProgressListener listener, BooleanSupplier enough)
            throws Exception {
        InetSocketAddress address =
                new InetSocketAddress(profile.target().host(), profile.target().port());
        return run(
                profile,
                config,
                enough,
                (engine, control) -> engine.run(address, listener, control));
    }

    /** Runs for the config's duration on {@code transport}. */
    public static RunSummary run(Profile profile, LoadConfig config, Transport transport)
            throws Exception {
        return run(profile, config, transport, null);
    }

    /** Runs for the config's duration on {@code transport}, over {@code tls} (null: plain TCP). */
    public static RunSummary run(
            Profile profile, LoadConfig config, Transport transport, ClientTls tls)
            throws Exception {
        InetSocketAddress address =
                new InetSocketAddress(profile.target().host(), profile.target().port());
        return run(
                profile,
                config,
                transport,
                tls,
                () -> false,
                (engine, control) -> engine.run(address, ProgressListener.NONE, control));
    }

    /**
     * As {@link #run(Profile, LoadConfig, BooleanSupplier)}, with the target's name resolved by
     * {@code resolver}, as connections reopen.
     */
    public static RunSummary runResolved(
            Profile profile, LoadConfig config, TargetResolver resolver, BooleanSupplier enough)
            throws Exception {
        return run(
                profile,
                config,
                enough,
                (engine, control) ->
                        engine.run(
                                profile.target().host(),
                                profile.target().port(),
                                resolver,
                                ProgressListener.NONE,
                                control,
                                StartGate.immediate()));
    }

    /** One way to call the engine. */
    @FunctionalInterface
    private interface Call {
        RunSummary run(LoadEngine engine, RunControl control) throws Exception;
    }

    private static RunSummary run(
            Profile profile, LoadConfig config, BooleanSupplier enough, Call call)
            throws Exception {
        return run(profile, config, Transport.select("auto"), null, enough, call);
    }

    private static RunSummary run(
            Profile profile,
            LoadConfig config,
            Transport transport,
            ClientTls tls,
            BooleanSupplier enough,
            Call call)
            throws Exception {
        RequestMix requests = RequestMix.compile(profile, RunnerSlice.SINGLE, name -> null);
        LoadEngine engine = new LoadEngine(profile, config, requests, transport).withTls(tls);
        RunControl control = new RunControl();
        CompletableFuture<RunSummary> result =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return call.run(engine, control);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                throw new IllegalStateException(e);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        try {
            Awaitility.await()
                    .atMost(Duration.ofMillis(config.durationMs() + 5_000))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> result.isDone() || enough.getAsBoolean());
        } finally {
            control.stop();
        }
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the run did not end cleanly", e);
        }
    }

    /** A config with one loop and {@code connections} connections. */
    public static LoadConfig config(
            int threads, int connections, long durationMs, long timeoutMs, boolean keepAlive) {
        return new LoadConfig(threads, connections, durationMs, timeoutMs, keepAlive, 1, 0);
    }
}
