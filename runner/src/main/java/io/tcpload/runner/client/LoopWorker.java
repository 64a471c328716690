package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.EventLoop;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketChannelConfig;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.tcpload.runner.decode.ResponseCodecs;
import io.tcpload.runner.rate.FireTimes;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.LoopStats;
import io.tcpload.runner.stats.PacedStats;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.tls.ClientTls;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The connections of one event loop, with their statistics and timers.
 *
 * <p>Threading: after construction every method runs on {@link #loop()}; the engine reaches it only
 * by submitting tasks ({@link #open}, {@link #beginAt}, {@link #stopAt}, {@link #stop}, and the
 * collector's drains of {@link #stats}).
 */
final class LoopWorker {
    /** Connections started at once per loop while opening, so that opening is never a storm. */
    private static final int OPEN_BATCH = 32;

    /**
     * Requests that never change up to this size are copied per connection (see ConnectionSlot).
     */
    private static final int OWN_REQUEST_MAX_BYTES = 4096;

    /**
     * How long before its start instant a loop's timer wakes it: more than the timer's own
     * granularity (NIO's selector waits in whole milliseconds).
     */
    private static final long BEGIN_EARLY_NS = TimeUnit.MILLISECONDS.toNanos(2);

    private final EventLoop loop;
    private final int loopIndex;
    private final LoadConfig config;
    private final RequestMix requests;
    private final RequestTemplate template;
    private final ResponseCodecs codecs;
    private final Transport transport;
    private final TargetAddresses targets;
    private final ClientTls tls;
    private LoopStats stats;

    /** Responses to requests sent (or, in rate mode, intended) before this are warm-up. */
    private long measureFromNs = Long.MIN_VALUE;

    /** Rate mode's sender, or null in the closed loop. */
    private final Pacer pacer;

    private final List<ConnectionSlot> slots;
    private final long timeoutNs;

    /**
     * Every channel of this loop not yet closed, including ones let go of and still closing, so
     * that the engine can wait for all closes before ending the loop: a close still pending when a
     * loop ends (io_uring completes closes asynchronously) is rejected and logged by Netty.
     */
    private final ChannelGroup channels;

    private Future<Void> allClosed;

    /** Operations of bare sockets in the ring whose completion has not come back. */
    private int ringOps;

    /** Completes when {@link #ringOps} falls to 0 after the stop; null before. */
    private Promise<Void> ringDrained;

    private ByteBuf staticRequest;
    private boolean running;
    private boolean begun;
    private int opened;
    private ScheduledFuture<?> ticker;
    private long stoppedNs = Long.MIN_VALUE;

    LoopWorker(
            EventLoop loop,
            int loopIndex,
            LoadConfig config,
            RequestMix requests,
            ResponseCodecs codecs,
            Transport transport,
            TargetAddresses targets,
            ClientTls tls) {
        this.loop = loop;
        this.tls = tls;
        this.loopIndex = loopIndex;
        this.config = config;
        this.requests = requests;
        this.template = requests.template(0);
        this.stats = new LoopStats(requests.names().size());
        this.codecs = codecs;
        this.targets = targets;
        this.timeoutNs = TimeUnit.MILLISECONDS.toNanos(config.timeoutMs());
        this.channels = new DefaultChannelGroup("tcpload-loop-" + loopIndex, loop);
        this.transport = transport;
        this.pacer =
                config.paced()
                        ? new Pacer(
                                this,
                                config.schedule()
                                        .fireTimes(
                                                config.runnerIndex(),
                                                config.runnerCount(),
                                                loopIndex,
                                                config.threads()),
                                new PacedStats(config.schedule()))
                        : null;
        int count = config.connectionsOfLoop(loopIndex);
        this.slots = new ArrayList<>(count);
        long firstIndex = config.firstConnectionIndex(loopIndex);
        for (int i = 0; i < count; i++) {
            slots.add(new ConnectionSlot(this, config.connectionId(loopIndex, i), firstIndex + i));
        }
    }

    EventLoop loop() {
        return loop;
    }

    LoadConfig config() {
        return config;
    }

    /** The request of a run without a mix; a mix's first request. */
    RequestTemplate template() {
        return template;
    }

    /** What the run sends: one request or a transaction mix. */
    RequestMix requests() {
        return requests;
    }

    /** The run's response decoders: one made per connection. */
    ResponseCodecs codecs() {
        return codecs;
    }

    /**
     * A new channel for one of this loop's connections, configured and not yet registered. Made
     * directly, not by a Bootstrap: a bootstrap is copied for every connect, with its options and
     * an initializer, a cost that short connections pay with every request.
     *
     * @throws ChannelException when no socket can be made (out of file descriptors, most often)
     */
    SocketChannel newChannel() {
        SocketChannel channel = transport.socketChannels().newChannel();
        SocketChannelConfig channelConfig = channel.config();
        // No setTcpNoDelay: every transport's channel turns TCP_NODELAY on as it is made
        // (TransportTest), and a second setsockopt is a system call for every connection.
        // The loop's timer already fails a connect that takes longer than the timeout (see
        // tick); Netty's own would schedule, then cancel, a task for every connect.
        channelConfig.setConnectTimeoutMillis(0);
        return channel;
    }

    /** Whether this loop's connections are bare io_uring sockets rather than Netty channels. */
    boolean bareSockets() {
        return transport.bareSockets();
    }

    /** A bare socket submitted an operation to the ring. */
    void ringOpSubmitted() {
        ringOps++;
    }

    /** An operation of a bare socket came back. */
    void ringOpDone() {
        ringOps--;
        if (ringOps == 0 && ringDrained != null) {
            ringDrained.trySuccess(null);
        }
    }

    /** The target's addresses, shared by every loop: each connection takes the next. */
    TargetAddresses targets() {
        return targets;
    }

    /** The run's TLS context, or null for plain TCP. */
    ClientTls tls() {
        return tls;
    }

    LoopStats stats() {
        return stats;
    }

    /** Rate mode's sender, or null in the closed loop. */
    Pacer pacer() {
        return pacer;
    }

    boolean running() {
        return running;
    }

    /** Tracks a new channel until it closes. */
    void track(Channel channel) {
        channels.add(channel);
    }

    /**
     * Completes when every channel of this loop has closed; null before {@link #stop}. Read it only
     * after the stop task has completed.
     */
    Future<Void> allClosed() {
        return allClosed;
    }

    /**
     * The request bytes shared by every connection of this loop when they never change and are too
     * big to copy per connection; null otherwise.
     */
    ByteBuf sharedStaticRequest() {
        return staticRequest;
    }

    /**
     * Begins the load at {@code deadlineNs} (a {@link System#nanoTime} value), precisely: this
     * loop's timer wakes it {@link #BEGIN_EARLY_NS} before, and it waits out the rest itself
     * ({@link StartGate#waitUntil}), so that the start is late by microseconds. A loop not armed
     * opens its connections at that moment. May be called from any thread; cancel the future to
     * call it off.
     *
     * @return completes with when this loop really began
     */
    ScheduledFuture<Began> beginAt(long deadlineNs, LongSupplier wallClockEpochUs) {
        long delayNs = Math.max(0, deadlineNs - System.nanoTime() - BEGIN_EARLY_NS);
        return loop.schedule(
                () -> {
                    StartGate.waitUntil(deadlineNs);
                    long beganNs = System.nanoTime();
                    long beganEpochUs = wallClockEpochUs.getAsLong();
                    if (!running) {
                        open();
                    }
                    begin(beganNs);
                    return new Began(beganNs, beganEpochUs);
                },
                delayNs,
                TimeUnit.NANOSECONDS);
    }

    /**
     * When one loop began its load.
     *
     * @param nanoTime on {@link System#nanoTime}
     * @param epochUs on the wall clock, in microseconds since the epoch
     */
    record Began(long nanoTime, long epochUs) {}

    /**
     * Starts opening this loop's connections, gradually; runs on the loop. Nothing is sent before
     * {@link #begin}: a loop armed ahead of its start instant (or, in rate mode with keep-alive,
     * ahead of the schedule's clock) has its connections open and waiting, so that the start is not
     * measured against connection set-up. Without keep-alive in rate mode, where every send opens
     * its own connection, the connections only queue for the schedule.
     */
    void open() {
        if (running) {
            return;
        }
        if (!requests.isMix()
                && template.kind() == RequestTemplate.Kind.STATIC
                && template.sizeHint() > OWN_REQUEST_MAX_BYTES) {
            // A big body (a POST of a file) is not copied per connection: each send writes a
            // duplicate, from the pooled allocator, whose duplicates are recycled.
            ByteBuf built = PooledByteBufAllocator.DEFAULT.directBuffer(template.sizeHint());
            template.writeRequest(built, 0);
            staticRequest = built;
        }
        running = true;
        long tickMs = Math.max(1, Math.min(100, config.timeoutMs() / 10));
        ticker = loop.scheduleAtFixedRate(this::tick, tickMs, tickMs, TimeUnit.MILLISECONDS);
        openNextBatch();
    }

    /**
     * Ends the warm-up: everything recorded so far is dropped, responses to warm-up requests (their
     * bytes too) will not be counted, and the clock (and in rate mode the schedule) starts again at
     * {@code startNs}. Runs on the loop.
     */
    void restartClock(long startNs) {
        restartClock(startNs, config.schedule());
    }

    /**
     * As {@link #restartClock(long)}, with rate mode following {@code schedule} from {@code
     * startNs}: a stepped run's next step, on the connections already open. Runs on the loop.
     */
    void restartClock(long startNs, RateSchedule schedule) {
        LoopStats fresh = new LoopStats(requests.names().size());
        fresh.carryOpenConnections(stats);
        stats = fresh;
        measureFromNs = startNs;
        for (ConnectionSlot slot : slots) {
            slot.clockRestarted(startNs);
        }
        stats.start(startNs);
        if (pacer != null) {
            pacer.restart(startNs, fireTimes(schedule), new PacedStats(schedule));
        }
    }

    /** Whether a request sent, or intended, at {@code sentNs} belongs to the measured run. */
    boolean measured(long sentNs) {
        return sentNs >= measureFromNs;
    }

    /**
     * Starts the clock of the run (Req/Sec slices and, in rate mode, the schedule) and the sends:
     * in the closed loop every open connection sends at once, the others as they connect.
     */
    private void begin(long startNs) {
        stats.start(startNs);
        begun = true;
        if (pacer != null) {
            // Connections opened ahead sign on now, outside the schedule.
            for (int i = 0; i < opened; i++) {
                slots.get(i).signOnIfDue();
            }
            pacer.start(startNs);
            return;
        }
        for (int i = 0; i < opened; i++) {
            slots.get(i).begin();
        }
    }

    /** Whether the load has begun: before, connections open but send nothing. */
    boolean begun() {
        return begun;
    }

    private FireTimes fireTimes(RateSchedule schedule) {
        return schedule.fireTimes(
                config.runnerIndex(), config.runnerCount(), loopIndex, config.threads());
    }

    private void openNextBatch() {
        if (!running) {
            return;
        }
        int end = Math.min(slots.size(), opened + OPEN_BATCH);
        for (; opened < end; opened++) {
            slots.get(opened).run();
        }
        if (opened < slots.size()) {
            loop.schedule(this::openNextBatch, 1, TimeUnit.MILLISECONDS);
        }
    }

    private void tick() {
        long now = System.nanoTime();
        stats.sampleRate(now);
        for (int i = 0; i < opened; i++) {
            slots.get(i).checkTimeout(now, timeoutNs);
        }
    }

    /**
     * Stops the load at {@code deadlineNs} (a {@link System#nanoTime} value), by this loop's own
     * timer, so that the end of the run does not wait for the collector's thread to wake and reach
     * every loop in turn. May be called from any thread.
     */
    ScheduledFuture<?> stopAt(long deadlineNs) {
        long delayNs = Math.max(0, deadlineNs - System.nanoTime());
        return loop.schedule(this::stop, delayNs, TimeUnit.NANOSECONDS);
    }

    /**
     * When this loop stopped its load, on {@link System#nanoTime}, or {@link Long#MIN_VALUE} if it
     * never ran; read it after a task submitted after the stop has completed. Everything counted
     * happened before it, and closing the connections comes after it.
     */
    long stoppedNs() {
        return stoppedNs;
    }

    /** Stops the load; runs on the loop. Requests in flight are abandoned. */
    void stop() {
        if (!running) {
            return;
        }
        long nowNs = System.nanoTime();
        stoppedNs = nowNs;
        stats.sampleRate(nowNs);
        running = false;
        if (ticker != null) {
            ticker.cancel(false);
        }
        for (ConnectionSlot slot : slots) {
            slot.stop();
        }
        if (transport.bareSockets()) {
            // The sockets' closes, and the reads and connects they end, come back through the
            // ring: the loop must run until they have.
            Promise<Void> drained = loop.newPromise();
            ringDrained = drained;
            if (ringOps == 0) {
                drained.trySuccess(null);
            }
            drained.addListener(done -> slots.forEach(ConnectionSlot::unregister));
            allClosed = drained;
        } else {
            allClosed = channels.close();
        }
        if (staticRequest != null) {
            staticRequest.release();
            staticRequest = null;
        }
    }
}
