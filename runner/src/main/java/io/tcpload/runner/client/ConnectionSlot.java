package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.correlate.Variables;
import io.tcpload.runner.decode.ResponseDecoder;
import io.tcpload.runner.mix.WeightedOrder;
import io.tcpload.runner.stats.ErrorKind;
import io.tcpload.runner.template.MissingValueException;
import io.tcpload.runner.template.RequestBuildException;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.tls.ClientTls;
import io.tcpload.runner.tls.TlsFailures;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import javax.net.ssl.SSLException;

/**
 * One of the {@code -c} connections: it connects, sends, waits for the responses, and reconnects,
 * for the whole run. In wrktcp's default mode every request gets a fresh TCP connection; with
 * keep-alive one connection carries request after request, up to {@code pipeline} in flight,
 * answered in order.
 *
 * <p>In the closed loop (wrk) a connection sends again as soon as it may, from the moment its loop
 * has begun: one opened ahead of a start instant waits, open, for it. In rate mode (wrk2) it sends
 * only when its loop's {@link Pacer} hands it a send with an intended time: it offers itself to the
 * pacer whenever it could take one, and latency is measured from the intended time, so a request
 * that waited for a free connection still counts its wait.
 *
 * <p>A complete response is counted on its own merits, whatever the connection does next. When the
 * server ends a connection (it said so in the response, or closed it when it had answered on it
 * before, or while it sat idle), the connection is opened again without an error, and the requests
 * it had written that got no byte of an answer are written again on the new one, keeping their
 * intended times, and counted as retried. Only a close in the middle of a response, or one that
 * leaves the first requests of a fresh connection unanswered, is a read error; so is a response
 * that began before the request it would answer was written (a second answer to one request, bytes
 * sent while the connection was idle), which is never credited to the request in flight.
 *
 * <p>An error belongs to the request it fails, and with a warm-up follows that request: the oldest
 * in flight, whose response is due, for a timeout, a read or write error or a close; the request
 * itself when it cannot be built; in rate mode without keep-alive, the send a connection opens for.
 * One of a warm-up request is left out, even when it happens after the warm-up has ended. An error
 * that fails no request (a keep-alive connection that cannot open) counts when it happens.
 *
 * <p>Each connection is a {@link Link}: a Netty channel, whose last inbound handler is this slot,
 * or on io_uring a bare socket ({@link RingLink}) that reports the same events to the slot directly
 * ({@link #connectDone}, {@link #responded}, {@link #failed}, {@link #ended}, {@link #writable}).
 * Events from a connection it has already let go of (closed after a response, a timeout or an
 * error) are ignored, so a late close or response is never counted twice.
 *
 * <p>Threading: confined to its event loop.
 */
@ChannelHandler.Sharable
final class ConnectionSlot extends ChannelInboundHandlerAdapter
        implements ChannelFutureListener, Runnable {
    private static final long MAX_BACKOFF_MS = 1000;

    /**
     * What {@link #failingRequestNs} says of an error that fails no request: it counts when it
     * happens, and every instant of the load is measured once the warm-up's figures are dropped.
     */
    private static final long NO_REQUEST = Long.MAX_VALUE;

    /** The in-flight rings' first size; they double as needed, up to {@code maxInFlight}. */
    private static final int INITIAL_RING_SIZE = 16;

    private final LoopWorker worker;
    private final long connectionId;
    private final int maxInFlight;

    /**
     * Intended send times of the requests in flight, oldest first, as a ring. The rings grow with
     * the requests actually in flight (which the connection's writability bounds), not with the
     * pipeline asked for.
     */
    private long[] intendedAtNs;

    /** Actual write times of the requests in flight, in the same ring. */
    private long[] writtenAtNs;

    /**
     * For each request in flight, in the same ring, the bytes its connection had received when it
     * was written: its answer must begin at or after that offset of the stream, and a response that
     * began before is one nobody asked for.
     */
    private long[] receivedAtWrite;

    /** The loop's pacer in rate mode, else null. */
    private final Pacer pacer;

    /** Whether the pacer's queue of slots that can take a send holds this slot. */
    boolean queued;

    /** Rate mode without keep-alive: the intended time of the send waiting for the connect. */
    private long pendingIntendedNs = -1;

    /**
     * Intended send times of the requests to write again as soon as the next connection is up,
     * oldest first: ones the server's close left unanswered.
     */
    private long[] resendAtNs;

    /** In a mix, the request index of each of those, in the same order; else null. */
    private int[] resendName;

    private int resendCount;

    /**
     * In a mix, the request index of each request in flight, in the rings' order, so that its
     * response is judged and counted as that request's; null without a mix.
     */
    private int[] nameInFlight;

    /** This connection's walk through the mix; null without a mix. */
    private final WeightedOrder.Cursor cursor;

    /** The connection's extracted values ({@code rsp_extract}); null when the profile has none. */
    private final Variables variables;

    /** The sign-on requests' indexes, sent on each new connection before the mix; often empty. */
    private final int[] signOns;

    /** Which sign-on is in flight (an index into {@link #signOns}), or -1 when none is. */
    private int signOnAt = -1;

    /** Whether the connection opened before the load began and its sign-on waits for the start. */
    private boolean signOnDue;

    /**
     * For each request in flight, in the rings' order, the values it sent that its response checks
     * by echo; null when no response checks any.
     */
    private byte[][][] sentInFlight;

    /** What the last request built sent for its response's echo checks. */
    private byte[][] lastSent;

    /**
     * Rate mode: the next send's request, built ahead of its fire time ({@link #prepare}), or null.
     * The send at the fire time takes it.
     */
    private ByteBuf preparedRequest;

    /** The mix's request index of {@link #preparedRequest}, and what it sent for echo checks. */
    private int preparedName;

    private byte[][] preparedSent;

    /** Why the request built ahead could not be built, or null. */
    private RequestBuildException preparedFailure;

    /** Requests in a row that could not be sent for a missing value, on this connection. */
    private int unsentInARow;

    /**
     * Requests in a row whose {@code $(length)} did not fit its field, whatever the connection: a
     * round of the mix of them pauses the closed loop's sends for the back-off.
     */
    private int unfitInARow;

    /** Whether the closed loop's sends wait out the back-off after such a round. */
    private boolean pausedAfterUnfit;

    private final Runnable resumeAfterUnfit = this::resumeAfterUnfit;

    /** Tells the decoder which request the response it completes answers: the oldest in flight. */
    private final IntSupplier answering = this::answeringName;

    /** Which bytes of the current connection's stream count as read. */
    private final MeasuredBytes measuredBytes = new MeasuredBytes();

    /** Connects a channel once it is registered, unless the slot has let go of it meanwhile. */
    private final ChannelFutureListener registered = this::registered;

    /**
     * The response decoder of {@link #decoderLink}, made as each connection is (within its
     * connect), so it is the current connection's.
     */
    private ResponseDecoder decoder;

    private Link decoderLink;

    /** The current connection, or null between connections. */
    private Link link;

    /** This slot's socket on an io_uring loop without channels, made at its first connect. */
    private RingSocket ringSocket;

    private boolean connecting;

    /**
     * Whether the current channel is connected and its TLS handshake not yet done: nothing is
     * written meanwhile, so a request's latency starts after the handshake, as after the connect.
     */
    private boolean handshaking;

    private long handshakeStartNs;

    /** The address of the current (or last) connection. */
    private TargetAddresses.Endpoint endpoint;

    /** Whether the current channel was counted in the loop's open connections. */
    private boolean countedOpen;

    private long connectStartNs;
    private int inFlightHead;
    private int inFlight;

    /** Requests written on the current connection; without keep-alive it carries one. */
    private long sentOnChannel;

    /**
     * Whether the server may close the current connection without answering what is in flight and
     * without being at fault: it has answered on it before, or it sat idle before the requests in
     * flight were written (the server may have been closing it meanwhile). A fresh connection's
     * first requests, written as it opened, are not: a close then is an error, which also bounds
     * the retries of a request to one per connection that answered something.
     */
    private boolean serverMayEnd;

    /** Whether the connect's completion is running: what it writes goes on a fresh connection. */
    private boolean openingNow;

    /** Whether a complete response arrived on the current connection. */
    private boolean answered;

    private long backoffMs;

    /**
     * This connection's request bytes when they do not change from send to send (no parameters, or
     * only CONNECTID), built once. A send resends this very buffer once the last send of it has
     * gone out (the write released it, so nothing else reads its indices), which creates no object
     * per request; only a pipelined send that finds it still queued writes a duplicate.
     */
    private final ByteBuf[] ownRequests;

    /**
     * @param connectionId its CONNECTID
     * @param globalIndex its number among every connection of the test, from 0: where it starts in
     *     a transaction mix
     */
    ConnectionSlot(LoopWorker worker, long connectionId, long globalIndex) {
        this.worker = worker;
        this.connectionId = connectionId;
        this.cursor = worker.requests().cursor(globalIndex);
        this.ownRequests = new ByteBuf[worker.requests().size()];
        this.maxInFlight = worker.config().keepAlive() ? worker.config().pipeline() : 1;
        int ringSize = Math.min(maxInFlight, INITIAL_RING_SIZE);
        this.intendedAtNs = new long[ringSize];
        this.writtenAtNs = new long[ringSize];
        this.receivedAtWrite = new long[ringSize];
        this.resendAtNs = new long[ringSize];
        if (cursor != null) {
            this.nameInFlight = new int[ringSize];
            this.resendName = new int[ringSize];
        }
        this.pacer = worker.pacer();
        List<String> names = worker.requests().variables();
        this.variables = names.isEmpty() ? null : new Variables(names);
        this.signOns = worker.requests().signOns();
        boolean echoes = false;
        for (int i = 0; i < worker.requests().size(); i++) {
            echoes |= !worker.requests().template(i).echoNames().isEmpty();
        }
        if (echoes) {
            this.sentInFlight = new byte[ringSize][][];
        }
    }

    /**
     * Gets ready to send (also the task run after a back-off): opens the connection, or in rate
     * mode without keep-alive, where each send opens its own, offers itself to the pacer.
     */
    @Override
    public void run() {
        if (!worker.running()) {
            return;
        }
        if (pacer != null && !worker.config().keepAlive()) {
            pacer.offer(this);
        } else {
            connect();
        }
    }

    private void connect() {
        if (link != null) {
            return;
        }
        connectStartNs = System.nanoTime();
        endpoint = worker.targets().next();
        if (worker.bareSockets()) {
            if (ringSocket == null) {
                ringSocket = new RingSocket(this, worker);
            }
            RingLink created = ringSocket.newLink();
            connecting = true;
            link = created;
            created.open(endpoint.address(), newDecoder(created));
            return;
        }
        SocketChannel created;
        try {
            created = worker.newChannel();
        } catch (ChannelException e) {
            socketUnmade(rootCause(e));
            return;
        }
        connecting = true;
        ChannelLink opened = new ChannelLink(created);
        link = opened;
        ResponseDecoder decoding = newDecoder(opened);
        ClientTls tls = worker.tls();
        if (tls != null) {
            // Made with the peer's name and port: the host-name check and the session cache need
            // them.
            created.pipeline()
                    .addLast("tls", tls.newHandler(created.alloc(), endpoint.address().getPort()));
        }
        // Named, so that the pipeline need not make up names and check them for each connection.
        created.pipeline().addLast("decoder", decoding).addLast("connection", this);
        worker.track(created);
        // On the loop's own thread the registration completes at once, and so does this call.
        worker.loop().register(created).addListener(registered);
    }

    /**
     * No socket could be made for a connect (out of file descriptors, most often): the failure is
     * this loop's, counted as a connect error, and the run goes on. The paced send it was for is
     * lost, as with a failed connect: the slot takes the next one after the back-off, rather than
     * wait for this one for the rest of the run.
     */
    private void socketUnmade(Throwable cause) {
        String reason = describe(cause);
        if (reason.contains("too many open files")) {
            reason += " (the open-file limit; raise it with ulimit -n)";
        }
        long requestNs = failingRequestNs();
        dropChannel();
        fail(ErrorKind.CONNECT, "connect: cannot open a socket: " + reason, requestNs);
    }

    /** As {@link #socketUnmade}, for the bare socket {@code from} that could not be made. */
    void socketUnmade(Link from, Throwable cause) {
        if (from == link) {
            socketUnmade(cause);
        }
    }

    /** A decoder for the new connection {@code of}, which it counts the reads of. */
    private ResponseDecoder newDecoder(Link of) {
        // Told of each read before it is decoded; a connection let go of answers nothing counted.
        IntConsumer reads = bytes -> bytesArrived(of);
        ResponseDecoder created =
                cursor == null
                        ? worker.codecs().newDecoder(reads)
                        : worker.codecs().newDecoder(reads, answering);
        decoder = created;
        decoderLink = of;
        measuredBytes.reset();
        return created;
    }

    /**
     * The current connection if it is {@code ch}'s, else null: the channel's events are not ours.
     */
    private Link current(Channel ch) {
        return link instanceof ChannelLink opened && opened.channel() == ch ? link : null;
    }

    private void registered(ChannelFuture future) {
        if (future.isSuccess() && current(future.channel()) != null) {
            future.channel().connect(endpoint.address()).addListener(this);
        } else {
            // A failed registration fails as a connect does; one the slot let go of is ignored.
            operationComplete(future);
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** The connect result. */
    @Override
    public void operationComplete(ChannelFuture future) {
        Link from = current(future.channel());
        if (from != null) {
            connectDone(from, future.isSuccess() ? null : future.cause());
        }
    }

    /** The connect of {@code from} succeeded, or failed with {@code failure}. */
    void connectDone(Link from, Throwable failure) {
        if (from != link) {
            return;
        }
        connecting = false;
        if (failure != null) {
            // Netty leaves the channel of a failed connect open: closed here, or its socket would
            // stay open until the run ends. One that takes too long is failed by checkTimeout.
            dropAndFail(ErrorKind.CONNECT, "connect: " + describe(failure));
            return;
        }
        long connectedNs = System.nanoTime();
        worker.stats().recordConnect((connectedNs - connectStartNs) / 1000);
        if (worker.tls() != null) {
            // The handshake began as the connection came up (the channel's handler, or the bare
            // socket's engine); it ends in handshakeDone.
            handshaking = true;
            handshakeStartNs = connectedNs;
            return;
        }
        opened();
    }

    /**
     * The TLS handshake ended: a success is timed and the connection opens; a failure is an error
     * of its own kind, its cause aggregated.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        Link from = current(ctx.channel());
        if (from != null && event instanceof SslCloseCompletionEvent) {
            // The server ended its TLS side (close_notify): that is the end of the stream, as a
            // TCP close is, whether or not the server also closes the socket. The close runs the
            // decoder's end of input first, so a response delimited by the close completes.
            ctx.channel().close();
            return;
        }
        if (from != null && event instanceof SslHandshakeCompletionEvent done) {
            handshakeDone(from, done.isSuccess() ? null : done.cause());
        }
    }

    /** The TLS handshake of {@code from} succeeded, or failed with {@code failure}. */
    void handshakeDone(Link from, Throwable failure) {
        if (from != link || !handshaking) {
            return;
        }
        handshaking = false;
        if (failure != null) {
            handshakeFailed(failure);
            return;
        }
        worker.stats().recordHandshake((System.nanoTime() - handshakeStartNs) / 1000);
        opened();
    }

    private void handshakeFailed(Throwable cause) {
        dropAndFail(ErrorKind.TLS, TlsFailures.reason(cause));
    }

    /**
     * The connection is up (connected, and with TLS its handshake done): its values of an earlier
     * connection are dropped, its sign-on goes first (once the load has begun), then sends begin.
     */
    private void opened() {
        worker.stats().connectionOpened();
        countedOpen = true;
        sentOnChannel = 0;
        serverMayEnd = false;
        answered = false;
        unsentInARow = 0;
        if (variables != null) {
            variables.clear();
        }
        if (signOns.length > 0) {
            if (worker.begun()) {
                signOn(0);
            } else {
                signOnDue = true;
            }
            return;
        }
        ready(true);
    }

    /** Sends sign-on {@code at} (of {@link #signOns}), or when all are done, the mix's requests. */
    private void signOn(int at) {
        signOnDue = false;
        if (at >= signOns.length) {
            signOnAt = -1;
            ready(false);
            return;
        }
        signOnAt = at;
        openingNow = at == 0;
        try {
            // Outside the schedule: intended when written, never a send of the pacer's.
            sendOne(System.nanoTime(), true, signOns[at]);
        } finally {
            openingNow = false;
        }
    }

    /**
     * The load began: a connection that opened before it signs on now. Called on every open
     * connection of the loop as it begins, in both modes.
     */
    void signOnIfDue() {
        if (signOnDue && link != null && !connecting && !handshaking) {
            signOn(0);
        }
    }

    /**
     * The connection is ready for the mix: first the requests the last one left unanswered, then
     * the closed loop's sends, or the rate mode's waiting send, or an offer to the pacer.
     *
     * @param fresh whether nothing was sent on it yet (no sign-on): a close then is an error
     */
    private void ready(boolean fresh) {
        openingNow = fresh;
        try {
            if (!resendPending()) {
                return;
            }
            if (pacer == null) {
                sendWhileAllowed();
            } else if (pendingIntendedNs >= 0) {
                long intendedNs = pendingIntendedNs;
                pendingIntendedNs = -1;
                sendOne(intendedNs, false, nextName());
            } else {
                pacer.offer(this);
            }
        } finally {
            openingNow = false;
        }
    }

    /**
     * Writes the requests left unanswered by the last connection's close, first on the new one.
     *
     * @return whether the connection is still this slot's (a request that needs a missing value may
     *     drop it)
     */
    private boolean resendPending() {
        int count = resendCount;
        resendCount = 0;
        for (int i = 0; i < count; i++) {
            int name = resendName == null ? 0 : resendName[i];
            if (link == null || !sendOne(resendAtNs[i], true, name)) {
                return false;
            }
        }
        return link != null;
    }

    /** Rate mode: whether this slot can take a send now. */
    boolean canSend() {
        if (!worker.config().keepAlive()) {
            return link == null && pendingIntendedNs < 0;
        }
        return link != null
                && !connecting
                && !handshaking
                && signOnAt < 0
                && !signOnDue
                && inFlight < maxInFlight
                && link.isWritable();
    }

    /**
     * Rate mode: sends (or, without keep-alive, connects to send) the request due at {@code
     * intendedNs}.
     */
    void sendAt(long intendedNs) {
        if (worker.config().keepAlive()) {
            if (preparedRequest != null || preparedFailure != null) {
                sendPrepared(intendedNs);
            } else {
                sendOne(intendedNs, false, nextName());
            }
        } else {
            pendingIntendedNs = intendedNs;
            connect();
        }
    }

    /**
     * Rate mode: builds the request of the next send now, ahead of its fire time, so that {@link
     * #sendAt} only writes it; the pacer calls it when this slot {@link #canSend} and will take
     * that send. Only on a kept-open connection whose requests carry no values from responses,
     * which could still change before the fire time; otherwise the send builds its request itself.
     */
    void prepare() {
        if (!worker.config().keepAlive()
                || variables != null
                || preparedRequest != null
                || preparedFailure != null) {
            return;
        }
        int name = nextName();
        preparedName = name;
        try {
            preparedRequest = nextRequest(name);
            preparedSent = lastSent;
        } catch (RequestBuildException e) {
            preparedFailure = e;
        }
        lastSent = null;
    }

    /** Sends the request {@link #prepare} built, or fails as its build failed. */
    private void sendPrepared(long intendedNs) {
        ByteBuf request = preparedRequest;
        RequestBuildException failure = preparedFailure;
        preparedRequest = null;
        preparedFailure = null;
        if (failure instanceof MissingValueException missing) {
            unsent(intendedNs, preparedName, false, false, missing);
            return;
        } else if (failure != null) {
            unfit(intendedNs, preparedName, false, false, failure);
            return;
        }
        byte[][] sent = preparedSent;
        preparedSent = null;
        write(request, sent, intendedNs, false, preparedName, false);
    }

    /**
     * The closed loop's start: a connection opened ahead of the start sends now; one still
     * connecting sends when it is connected.
     */
    void begin() {
        if (signOnDue) {
            signOnIfDue();
            return;
        }
        if (pacer == null && !connecting) {
            sendWhileAllowed();
        }
    }

    private void sendWhileAllowed() {
        sendWhileAllowed(System.nanoTime());
    }

    /**
     * The closed loop's sends: as many as the connection takes, the first intended at {@code
     * firstNs} (a clock read the caller made a moment ago), the others when each is built.
     */
    private void sendWhileAllowed(long firstNs) {
        boolean reusable = worker.config().keepAlive();
        long intendedNs = firstNs;
        while (worker.begun()
                && worker.running()
                && link != null
                && !handshaking
                && signOnAt < 0
                && !signOnDue
                && !pausedAfterUnfit
                && inFlight < maxInFlight
                && link.isWritable()
                && (reusable || sentOnChannel == 0)) {
            if (!sendOne(intendedNs, false, nextName())) {
                return;
            }
            intendedNs = System.nanoTime();
        }
    }

    /**
     * Writes one request intended at {@code intendedNs}.
     *
     * @param resent whether it is one the server's close left unanswered (not another send of the
     *     schedule)
     * @param name which request of the mix it is (0 without a mix)
     * @return whether sending may go on: false when the request could not be built and the
     *     connection was dropped, or the sends pause
     */
    private boolean sendOne(long intendedNs, boolean resent, int name) {
        ByteBuf request;
        boolean signOn = signOnAt >= 0;
        try {
            request = nextRequest(name);
        } catch (MissingValueException e) {
            return unsent(intendedNs, name, signOn, resent, e);
        } catch (RequestBuildException e) {
            return unfit(intendedNs, name, signOn, resent, e);
        }
        byte[][] sent = lastSent;
        lastSent = null;
        write(request, sent, intendedNs, resent, name, signOn);
        return true;
    }

    /**
     * A request whose {@code $(length)} does not fit its field: not sent, and counted as a failed
     * request with the reason, never as a socket error, since nothing is wrong with the connection.
     * The connection goes on with the next request. Without keep-alive in rate mode, where it was
     * opened for this send alone, it is closed and the slot waits for the next send. In the closed
     * loop a round of the mix in a row that did not fit (a request that never fits, most often)
     * pauses the sends for the back-off, so that they fail at its pace, not in a busy loop.
     *
     * @return whether sending may go on now
     */
    private boolean unfit(
            long intendedNs, int name, boolean signOn, boolean resent, RequestBuildException e) {
        countUnsent(intendedNs, name, signOn, resent, e.getMessage());
        if (signOn) {
            nextSignOnLater();
            return true;
        }
        if (pacer != null) {
            if (worker.config().keepAlive()) {
                return true;
            }
            dropChannel();
            run();
            return false;
        }
        if (resent || ++unfitInARow <= worker.requests().size()) {
            return true;
        }
        unfitInARow = 0;
        growBackoff();
        pausedAfterUnfit = true;
        worker.loop().schedule(resumeAfterUnfit, backoffMs, TimeUnit.MILLISECONDS);
        return false;
    }

    /** The back-off after a round of requests that did not fit is over: sends go on. */
    private void resumeAfterUnfit() {
        pausedAfterUnfit = false;
        if (link != null && !connecting && !handshaking) {
            sendWhileAllowed();
        }
    }

    /**
     * Counts a request not sent, as a failed request with {@code reason} (a sign-on's on its own
     * row); in rate mode, a send of the schedule's as taken, so that it is not reported as one
     * still waiting for a connection.
     */
    private void countUnsent(
            long intendedNs, int name, boolean signOn, boolean resent, String reason) {
        if (worker.running() && worker.measured(intendedNs)) {
            worker.stats().recordUnsent(signOn, cursor == null ? -1 : name, reason);
        }
        if (pacer != null && !resent && !signOn) {
            pacer.stats()
                    .recordUnsent(intendedNs - pacer.startNs(), System.nanoTime() - intendedNs);
        }
    }

    /**
     * A sign-on not sent: the next sign-on, or the mix, goes on, each checked as it is built.
     * Later, not from within the send: the next sign-on would recurse through here.
     */
    private void nextSignOnLater() {
        Link signingOn = link;
        int next = signOnAt + 1;
        worker.loop().execute(() -> signOnAfterUnsent(signingOn, next));
    }

    /**
     * Writes a request built for a send intended at {@code intendedNs}.
     *
     * @param sent what it sent for its response's echo checks, or null
     */
    private void write(
            ByteBuf request,
            byte[][] sent,
            long intendedNs,
            boolean resent,
            int name,
            boolean signOn) {
        if (inFlight == intendedAtNs.length) {
            growRing();
        }
        int tail = (inFlightHead + inFlight) % intendedAtNs.length;
        // The closed loop's send is intended as it is made: one clock read serves both. A paced
        // send's intended time is the schedule's, and one written again is an earlier send's.
        long nowNs = pacer == null && !resent ? intendedNs : System.nanoTime();
        intendedAtNs[tail] = intendedNs;
        writtenAtNs[tail] = nowNs;
        receivedAtWrite[tail] = decoder.bytesReceived();
        if (nameInFlight != null) {
            nameInFlight[tail] = name;
        }
        if (sentInFlight != null) {
            sentInFlight[tail] = sent;
        }
        unsentInARow = 0;
        unfitInARow = 0;
        if (pacer != null && !resent) {
            pacer.stats().recordSend(intendedNs - pacer.startNs(), nowNs - intendedNs);
        }
        if (inFlight == 0 && !openingNow) {
            serverMayEnd = true;
        }
        inFlight++;
        if (!signOn) {
            sentOnChannel++;
        }
        if (worker.measured(intendedNs)) {
            // A warm-up request written again after the warm-up is still the warm-up's.
            worker.stats().recordBytesWritten(request.readableBytes());
        }
        link.write(request);
    }

    /**
     * A request that needs a value its connection does not hold: not sent, counted as a failure
     * ({@code missing value NAME}). A value a sign-on gives is missing because that sign-on failed:
     * the connection opens again after the back-off, and signs on again. Otherwise the connection
     * goes on with its next request, unless it has sent nothing for a round of the mix, when it is
     * opened again too. Without keep-alive, the connection was this request's alone.
     *
     * @return whether the connection is still this slot's
     */
    private boolean unsent(
            long intendedNs, int name, boolean signOn, boolean resent, MissingValueException e) {
        countUnsent(intendedNs, name, signOn, resent, e.getMessage());
        if (signOn) {
            nextSignOnLater();
            return true;
        }
        unsentInARow++;
        if (!worker.config().keepAlive()
                || worker.requests().setBySignOn(e.variable())
                || unsentInARow > worker.requests().size()) {
            dropChannel();
            growBackoff();
            reconnectAfter(backoffMs);
            return false;
        }
        return true;
    }

    private void signOnAfterUnsent(Link signingOn, int next) {
        if (link == signingOn && link != null && signOnAt == next - 1 && inFlight == 0) {
            signOn(next);
        }
    }

    /** A read on {@code from} has arrived, and is counted in {@link #decoder}'s stream. */
    private void bytesArrived(Link from) {
        if (from == link && worker.running()) {
            countBytesRead();
        }
    }

    /**
     * Counts the bytes received on the current connection that are settled as measured: all but
     * those that may still belong to a warm-up request's response.
     */
    private void countBytesRead() {
        boolean answeringWarmup = inFlight > 0 && !worker.measured(intendedAtNs[inFlightHead]);
        long bytes = measuredBytes.received(decoder.bytesReceived(), answeringWarmup);
        if (bytes > 0) {
            worker.stats().recordBytesRead(bytes);
        }
    }

    /** The request index of the oldest request in flight, whose answer comes next. */
    private int answeringName() {
        return inFlight > 0 ? nameInFlight[inFlightHead] : 0;
    }

    /** The next request of this connection's walk through the mix; 0 without a mix. */
    private int nextName() {
        return cursor == null ? 0 : worker.requests().next(cursor);
    }

    private ByteBuf nextRequest(int name) {
        RequestTemplate template = worker.requests().template(name);
        ByteBuf shared = worker.sharedStaticRequest();
        if (shared != null) {
            return shared.retainedDuplicate();
        }
        if (template.kind() == RequestTemplate.Kind.PER_REQUEST) {
            return build(template, link.alloc().ioBuffer(template.sizeHint()));
        }
        ByteBuf own = ownRequests[name];
        if (own == null) {
            own = build(template, link.alloc().directBuffer(template.sizeHint()));
            ownRequests[name] = own;
        }
        if (own.refCnt() == 1) {
            return own.readerIndex(0).retain();
        }
        return own.retainedDuplicate();
    }

    /** Doubles the rings (up to {@code maxInFlight}), the oldest request in flight first. */
    private void growRing() {
        int size = intendedAtNs.length;
        int grown = (int) Math.min(maxInFlight, 2L * size);
        intendedAtNs = unwrapped(intendedAtNs, grown);
        writtenAtNs = unwrapped(writtenAtNs, grown);
        receivedAtWrite = unwrapped(receivedAtWrite, grown);
        if (nameInFlight != null) {
            nameInFlight = unwrapped(nameInFlight, grown);
        }
        if (sentInFlight != null) {
            byte[][][] copy = new byte[grown][][];
            int firstPart = Math.min(inFlight, sentInFlight.length - inFlightHead);
            System.arraycopy(sentInFlight, inFlightHead, copy, 0, firstPart);
            System.arraycopy(sentInFlight, 0, copy, firstPart, inFlight - firstPart);
            sentInFlight = copy;
        }
        inFlightHead = 0;
    }

    private int[] unwrapped(int[] ring, int grown) {
        int[] copy = new int[grown];
        int firstPart = Math.min(inFlight, ring.length - inFlightHead);
        System.arraycopy(ring, inFlightHead, copy, 0, firstPart);
        System.arraycopy(ring, 0, copy, firstPart, inFlight - firstPart);
        return copy;
    }

    private long[] unwrapped(long[] ring, int grown) {
        long[] copy = new long[grown];
        int firstPart = Math.min(inFlight, ring.length - inFlightHead);
        System.arraycopy(ring, inFlightHead, copy, 0, firstPart);
        System.arraycopy(ring, 0, copy, firstPart, inFlight - firstPart);
        return copy;
    }

    private ByteBuf build(RequestTemplate template, ByteBuf buffer) {
        try {
            lastSent = template.writeRequest(buffer, connectionId, variables);
            return buffer;
        } catch (RequestBuildException e) {
            buffer.release();
            throw e;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Link from = current(ctx.channel());
        if (from != null) {
            responded(from, msg);
        }
    }

    /** A decoded message of {@code from}: a response's outcome. */
    void responded(Link from, Object msg) {
        if (from != link) {
            return;
        }
        ResponseOutcome outcome;
        CheckedResponse checked = null;
        if (msg instanceof ResponseOutcome judged) {
            outcome = judged;
        } else if (msg instanceof CheckedResponse carried) {
            outcome = carried.outcome();
            checked = carried;
        } else {
            return;
        }
        if (inFlight == 0 || decoder.responseStartOffset() < receivedAtWrite[inFlightHead]) {
            // A second answer to one request, or bytes sent while nothing was asked: crediting
            // them to the request in flight would count one response twice.
            dropAndFail(ErrorKind.READ, "read: a response arrived that no request asked for");
            return;
        }
        long intendedNs = intendedAtNs[inFlightHead];
        long writtenNs = writtenAtNs[inFlightHead];
        int name = nameInFlight == null ? 0 : nameInFlight[inFlightHead];
        byte[][] sent = null;
        if (sentInFlight != null) {
            sent = sentInFlight[inFlightHead];
            sentInFlight[inFlightHead] = null;
        }
        inFlightHead = (inFlightHead + 1) % intendedAtNs.length;
        inFlight--;
        serverMayEnd = true;
        answered = true;
        if (!worker.running()) {
            return;
        }
        // A warm-up request answered after the measured run began is not part of it.
        boolean measured = worker.measured(intendedNs);
        if (!measured) {
            // The bytes of a warm-up request's response are dropped; those behind it, in the
            // same read, count when they answer a measured request.
            measuredBytes.warmupAnswered(decoder.responseEndOffset());
            countBytesRead();
        }
        boolean last = decoder.closesConnection();
        long nowNs = System.nanoTime();
        long correctedUs = (nowNs - intendedNs) / 1000;
        boolean success = outcome.success();
        String failure =
                checked == null ? null : checked.rule().settle(checked.values(), sent, variables);
        if (failure != null) {
            success = false;
        }
        boolean signingOn = signOnAt >= 0;
        if (success || !signingOn) {
            // A failed sign-on keeps the back-off growing: its connection gets nowhere.
            backoffMs = 0;
        }
        if (measured) {
            if (signingOn) {
                // A sign-on has its own row and is not one of the mix's requests.
                worker.stats().recordNamed(name, success, correctedUs);
            } else {
                worker.stats().recordResponse(success, outcome.non2xx3xx(), correctedUs);
                if (cursor != null) {
                    worker.stats().recordNamed(name, success, correctedUs);
                }
            }
            if (failure != null) {
                worker.stats().recordFailureReason(failure);
            }
            worker.stats().recordAddressResponse(endpoint.id());
            if (pacer != null && !signingOn) {
                pacer.stats()
                        .recordResponse(
                                intendedNs - pacer.startNs(),
                                success,
                                correctedUs,
                                (nowNs - writtenNs) / 1000);
            }
        }
        if (signingOn) {
            if (last) {
                serverEnded();
            } else {
                signOn(signOnAt + 1);
            }
            return;
        }
        if (!worker.config().keepAlive()) {
            dropChannel();
            run();
        } else if (last) {
            // The server said it closes this connection: what was written behind this response
            // goes on the next one.
            serverEnded();
        } else if (pacer == null) {
            // The next request is intended now: the instant this response was timed at.
            sendWhileAllowed(nowNs);
        } else {
            pacer.offer(this);
        }
    }

    /**
     * The connection can take more again (its queue fell below the low-water mark): sends resume.
     * Nothing is written while it cannot, so a server that reads slowly, or not at all, holds up
     * only what its socket buffers and the high-water mark hold, whatever the pipeline.
     */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        Link from = current(ctx.channel());
        if (from != null) {
            writable(from);
        }
    }

    /** {@code from} may have become writable again. */
    void writable(Link from) {
        if (from != link || !link.isWritable() || connecting || handshaking) {
            return;
        }
        if (pacer == null) {
            sendWhileAllowed();
        } else if (worker.config().keepAlive()) {
            pacer.offer(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Link from = current(ctx.channel());
        if (from != null) {
            ended(from);
        }
    }

    /** {@code from} closed: the server ended it, or it ended in an error not told before. */
    void ended(Link from) {
        if (from != link) {
            return;
        }
        if (handshaking) {
            handshakeFailed(new ClosedChannelException());
            return;
        }
        connectionLost(
                ErrorKind.READ,
                "read: connection closed before a full response",
                "read: connection closed before any byte of the response");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Link from = current(ctx.channel());
        if (from != null) {
            failed(from, cause);
        }
    }

    /**
     * {@code from} failed: a framing error ({@link DecoderException}), a read or write error, a
     * close in the middle of a response, a TLS alert.
     */
    void failed(Link from, Throwable cause) {
        if (from != link) {
            return;
        }
        if (handshaking) {
            handshakeFailed(cause);
            return;
        }
        SSLException tlsFailure = sslException(cause);
        if (tlsFailure != null) {
            // A fatal alert after the handshake: with TLS 1.3 a server that refuses the client's
            // certificate says so only once the client has finished its side.
            dropAndFail(ErrorKind.TLS, TlsFailures.reason(tlsFailure));
            return;
        }
        if (cause instanceof DecoderException) {
            Throwable reason = cause.getCause() != null ? cause.getCause() : cause;
            dropAndFail(ErrorKind.READ, "read: " + reason.getMessage());
        } else if (isWriteFailure(cause)) {
            String message = "write: " + describe(cause);
            connectionLost(ErrorKind.WRITE, message, message);
        } else {
            String message = "read: " + describe(cause);
            connectionLost(ErrorKind.READ, message, message);
        }
    }

    /**
     * The connection ended (closed or reset) other than by a framing error. In the middle of a
     * response this is a read error ({@code cutMessage}); with requests in flight that the server
     * may not leave unanswered, an error of {@code kind} ({@code unansweredMessage}); otherwise the
     * server ended it, and it is opened again.
     */
    private void connectionLost(ErrorKind kind, String cutMessage, String unansweredMessage) {
        ResponseDecoder current = decoderLink == link ? decoder : null;
        if (current != null && current.inResponse()) {
            dropAndFail(ErrorKind.READ, cutMessage);
        } else if (inFlight > 0 && !serverMayEnd) {
            dropAndFail(kind, unansweredMessage);
        } else {
            serverEnded();
        }
    }

    /**
     * The server ended the connection between responses: the requests in flight go first on the
     * next connection, counted as retried, and it opens at once. An idle one closed by the server
     * is not an error either; if it never answered anything, the next one opens after the back-off
     * (which grows, uncounted), so that a server closing every idle connection is not hammered.
     */
    private void serverEnded() {
        boolean resending = inFlight > 0;
        if (resendAtNs.length < resendCount + inFlight) {
            resendAtNs = Arrays.copyOf(resendAtNs, intendedAtNs.length);
            if (resendName != null) {
                resendName = Arrays.copyOf(resendName, intendedAtNs.length);
            }
        }
        for (int i = 0; i < inFlight; i++) {
            int at = (inFlightHead + i) % intendedAtNs.length;
            if (signOnAt >= 0) {
                // The new connection signs on afresh: a sign-on is never resent as one.
                resending = false;
                break;
            }
            long intendedNs = intendedAtNs[at];
            if (resendName != null) {
                resendName[resendCount] = nameInFlight[at];
            }
            resendAtNs[resendCount++] = intendedNs;
            if (worker.running() && worker.measured(intendedNs)) {
                worker.stats().recordRetry();
            }
        }
        boolean fruitless = !resending && !answered;
        dropChannel();
        if (fruitless) {
            growBackoff();
        }
        reconnectAfter(fruitless ? backoffMs : 0);
    }

    private void growBackoff() {
        backoffMs = backoffMs == 0 ? 1 : Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    }

    /** Called by the loop's timer: fails a connect or the oldest request that took too long. */
    void checkTimeout(long nowNs, long timeoutNs) {
        if (link == null) {
            return;
        }
        if (connecting && nowNs - connectStartNs > timeoutNs) {
            dropAndFail(ErrorKind.TIMEOUT, "connect timed out");
        } else if (handshaking && nowNs - handshakeStartNs > timeoutNs) {
            dropAndFail(ErrorKind.TIMEOUT, "tls handshake timed out");
        } else if (inFlight > 0 && nowNs - writtenAtNs[inFlightHead] > timeoutNs) {
            dropAndFail(ErrorKind.TIMEOUT, "response timed out");
        }
    }

    /**
     * The loop's clock started again at {@code startNs} (the warm-up ended, or a search's next step
     * began). What this slot sent or owes under the old clock stays the old clock's, even where its
     * intended time lies after {@code startNs}: the loop learns of the restart a little after that
     * instant and went on sending meanwhile, so in rate mode both schedules would have sends of the
     * same instants, and the measured run would count them twice.
     */
    void clockRestarted(long startNs) {
        long oldClockNs = startNs - 1;
        for (int i = 0; i < inFlight; i++) {
            int at = (inFlightHead + i) % intendedAtNs.length;
            intendedAtNs[at] = Math.min(intendedAtNs[at], oldClockNs);
        }
        for (int i = 0; i < resendCount; i++) {
            resendAtNs[i] = Math.min(resendAtNs[i], oldClockNs);
        }
        if (pendingIntendedNs >= 0) {
            pendingIntendedNs = Math.min(pendingIntendedNs, oldClockNs);
        }
    }

    /** Stops at the end of the run: requests in flight are abandoned, not counted as errors. */
    void stop() {
        dropChannel();
        resendCount = 0;
        if (preparedRequest != null) {
            preparedRequest.release();
            preparedRequest = null;
        }
        preparedFailure = null;
        for (int i = 0; i < ownRequests.length; i++) {
            if (ownRequests[i] != null) {
                ownRequests[i].release();
                ownRequests[i] = null;
            }
        }
    }

    /** The run is over and nothing of this slot is left in the ring: its registration goes. */
    void unregister() {
        if (ringSocket != null) {
            ringSocket.unregister();
        }
    }

    /** Lets go of the current channel; its later events are ignored. */
    private void dropChannel() {
        Link current = link;
        link = null;
        connecting = false;
        handshaking = false;
        inFlight = 0;
        inFlightHead = 0;
        pendingIntendedNs = -1;
        signOnAt = -1;
        signOnDue = false;
        if (sentInFlight != null) {
            Arrays.fill(sentInFlight, null);
        }
        if (countedOpen) {
            countedOpen = false;
            worker.stats().connectionClosed();
        }
        if (current != null) {
            current.close();
        }
    }

    /**
     * The intended send time of the request an error of the current connection fails: the oldest in
     * flight, whose response is due; else the paced send the connection opens for (rate mode
     * without keep-alive); else {@link #NO_REQUEST}. Read it before {@link #dropChannel}, which
     * forgets them.
     */
    private long failingRequestNs() {
        if (inFlight > 0) {
            return intendedAtNs[inFlightHead];
        }
        if (pendingIntendedNs >= 0) {
            return pendingIntendedNs;
        }
        return NO_REQUEST;
    }

    /** Lets go of the current channel on an error of the request it fails, if any. */
    private void dropAndFail(ErrorKind kind, String message) {
        long requestNs = failingRequestNs();
        dropChannel();
        fail(kind, message, requestNs);
    }

    /**
     * Counts an error, unless it fails a warm-up request ({@code requestNs}, its intended send
     * time, or {@link #NO_REQUEST}), and opens the connection again after the back-off. In rate
     * mode it counts in the stage of that request's intended time, as its response would.
     */
    private void fail(ErrorKind kind, String message, long requestNs) {
        if (!worker.running()) {
            return;
        }
        if (worker.measured(requestNs)) {
            worker.stats().recordError(kind, message);
            if (endpoint != null) {
                worker.stats().recordAddressError(endpoint.id());
            }
            if (pacer != null) {
                long atNs = requestNs == NO_REQUEST ? System.nanoTime() : requestNs;
                pacer.stats().recordError(atNs - pacer.startNs(), kind);
            }
        }
        growBackoff();
        reconnectAfter(backoffMs);
    }

    private void reconnectAfter(long delayMs) {
        if (!worker.running()) {
            return;
        }
        if (delayMs == 0) {
            run();
        } else {
            worker.loop().schedule(this, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private static SSLException sslException(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException ssl) {
                return ssl;
            }
        }
        return null;
    }

    private static boolean isWriteFailure(Throwable cause) {
        String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
        return message.contains("broken pipe");
    }

    /** A short, stable description for aggregation: the OS reason without per-call details. */
    static String describe(Throwable cause) {
        String message = cause.getMessage();
        if (message == null || message.isBlank()) {
            return cause.getClass().getSimpleName();
        }
        // Native transports prefix the syscall: "connect(..) failed: Connection refused" (epoll),
        // "io_uring connect(..) failed with error(-111): Connection refused" (io_uring).
        int failed = message.indexOf("failed");
        int colon = failed >= 0 ? message.indexOf(": ", failed) : -1;
        String reason = colon >= 0 ? message.substring(colon + 2) : message;
        if (cause instanceof IOException && reason.contains(": /")) {
            reason = reason.substring(0, reason.indexOf(": /"));
        }
        return reason.toLowerCase(Locale.ROOT);
    }
}
