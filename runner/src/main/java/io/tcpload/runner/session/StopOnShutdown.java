package io.tcpload.runner.session;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C and SIGTERM end a run early instead of killing it: the hook stops the run, then holds the
 * JVM open until the report is out ({@link #close}), at most {@link #REPORT_WAIT_S} seconds.
 */
public final class StopOnShutdown implements AutoCloseable {
    /** How long the JVM waits for the report once a stop is asked for. */
    static final long REPORT_WAIT_S = 15;

    private final CountDownLatch reported = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean shuttingDown;

    private StopOnShutdown(Runnable stop) {
        hook =
                new Thread(
                        () -> {
                            shuttingDown = true;
                            stop.run();
                            try {
                                reported.await(REPORT_WAIT_S, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "tcpload-stop");
    }

    /** Until {@link #close}, a shutdown of the JVM calls {@code stop} first. */
    public static StopOnShutdown install(Runnable stop) {
        StopOnShutdown installed = new StopOnShutdown(stop);
        Runtime.getRuntime().addShutdownHook(installed.hook);
        return installed;
    }

    /** Whether the JVM is shutting down (Ctrl-C, SIGTERM): the run was stopped by it. */
    public boolean shuttingDown() {
        return shuttingDown;
    }

    /** The report is out: a shutdown in progress may go on, and later ones no longer stop. */
    @Override
    public void close() {
        reported.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // The hook is running and was waiting for the report, which is now out.
        }
    }
}
