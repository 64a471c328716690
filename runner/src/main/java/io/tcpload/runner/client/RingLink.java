package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.unix.Errors;
import io.netty.channel.unix.Socket;
import io.netty.channel.uring.IoUringIoOps;
import io.netty.handler.codec.DecoderException;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.decode.ResponseDecoder;
import java.io.IOException;
import java.net.InetSocketAddress;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * One connection on a bare io_uring socket: the socket is made, connected, written, read and closed
 * by operations in the ring, so a connection costs two system calls of its own: the one that turns
 * {@code TCP_NODELAY} on and the {@code getsockname} with which Netty's {@link Socket} learns the
 * socket's family. Reads go into one buffer that the response decoder consumes, one read in the
 * ring at a time (a server that sends without pause cannot keep the loop from its timers); one send
 * at a time, with what is written meanwhile gathered for the next. The events reach the slot as a
 * channel's would: connected, each outcome, an error, the end of the input. With TLS, an engine
 * ({@link RingTls}) stands between the socket's bytes and the decoder, and the handshake's end is
 * one more event; a connection the client closes says {@code close_notify} first.
 *
 * <p>A buffer the kernel may still write into or read from is released only when its operation has
 * come back: closing a connection with a read or a connect in the ring shuts the socket down first,
 * which ends them at once.
 *
 * <p>Threading: confined to the slot's event loop.
 */
final class RingLink implements Link {
    private static final byte OP_CONNECT = 16;
    private static final byte OP_CLOSE = 19;
    private static final byte OP_SEND = 26;
    private static final byte OP_RECV = 27;
    private static final byte OP_SOCKET = 45;

    private static final int SOCK_STREAM = 1;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int MSG_NOSIGNAL = 0x4000;

    /**
     * A receive submitted right after the connect or a send has nothing to read yet: the kernel
     * waits for data instead of trying first ({@code IORING_RECVSEND_POLL_FIRST}).
     */
    private static final short RECV_POLL_FIRST = 1;

    private static final int FIRST_READ_BYTES = 2048;
    private static final int MAX_READ_BYTES = 64 * 1024;

    /** Bytes gathered behind the send in the ring above which the link is not writable. */
    private static final int HIGH_WATER_BYTES = 64 * 1024;

    private static final int FIRST_GATHER_BYTES = 512;

    private static final ByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    private final RingSocket socket;
    private final short generation;
    private ResponseDecoder decoder;
    private int fd = -1;

    /** Operations in the ring not yet come back. */
    private int pending;

    private boolean closed;
    private ByteBuf received;
    private int readBytes = FIRST_READ_BYTES;

    /** The request in the ring, or null. */
    private ByteBuf sending;

    /**
     * Requests written while a send is in the ring, copied one after another: the next send takes
     * them all, so that a pipeline of a hundred requests costs two sends, not a hundred.
     */
    private ByteBuf gathered;

    /**
     * The last receive and send operations, submitted again as they are while their buffer and
     * length stay the same: on a kept-open connection they do, request after request.
     */
    private IoUringIoOps lastReceive;

    private long lastReceiveMemory;
    private int lastReceiveLength;
    private IoUringIoOps lastSend;
    private long lastSendMemory;
    private int lastSendLength;

    /** Where the connect goes. */
    private InetSocketAddress address;

    /** The connection's TLS engine once connected, when the run speaks TLS. */
    private RingTls tls;

    /** The server closed the socket or it failed: nothing more is sent on it, not even a close. */
    private boolean peerGone;

    /** A close waits for the {@code close_notify} in the ring to be sent. */
    private boolean closeAfterSend;

    RingLink(RingSocket socket, short generation) {
        this.socket = socket;
        this.generation = generation;
    }

    short generation() {
        return generation;
    }

    /** Makes the socket and connects it to {@code address}; the slot hears of it in connectDone. */
    void open(InetSocketAddress address, ResponseDecoder decoder) {
        this.decoder = decoder;
        if (!socket.usable()) {
            closed = true;
            socket.forget(this);
            socket.slot().socketUnmade(this, new IOException("cannot register with the loop"));
            return;
        }
        this.address = address;
        submit(
                op(
                        OP_SOCKET,
                        RingSocket.family(address),
                        SOCK_STREAM | SOCK_CLOEXEC,
                        0,
                        0,
                        0,
                        (short) 0));
    }

    private IoUringIoOps op(
            byte opcode, int fd, long offset, long memory, int length, int opFlags, short ioPrio) {
        return new IoUringIoOps(
                opcode,
                (byte) 0,
                ioPrio,
                fd,
                offset,
                memory,
                length,
                opFlags,
                generation,
                (short) 0,
                (short) 0,
                0,
                0L);
    }

    private void submit(IoUringIoOps op) {
        pending++;
        socket.submit(op);
    }

    /** An operation of this link came back with {@code res}. */
    void complete(byte opcode, int res) {
        pending--;
        switch (opcode) {
            case OP_SOCKET -> made(res);
            case OP_CONNECT -> connected(res);
            case OP_SEND -> sent(res);
            case OP_RECV -> read(res);
            default -> {
                // OP_CLOSE: nothing to do but count it back.
            }
        }
        if (closed && pending == 0) {
            releaseBuffers();
            socket.forget(this);
        }
    }

    private void made(int res) {
        if (res >= 0 && closed) {
            // Let go of while the socket was being made.
            submit(op(OP_CLOSE, res, 0, 0, 0, 0, (short) 0));
            return;
        }
        if (closed) {
            return;
        }
        if (res < 0) {
            closed = true;
            socket.slot().socketUnmade(this, Errors.newIOException("socket", res));
            return;
        }
        fd = res;
        try {
            // As every transport's channel: a request longer than a segment is not held back.
            new Socket(fd).setTcpNoDelay(true);
        } catch (IOException e) {
            // Not fatal: the connect tells whether the socket is any good.
        }
        int length = socket.sockaddr(address);
        submit(op(OP_CONNECT, fd, length, socket.sockaddrAddress(), 0, 0, (short) 0));
    }

    private void connected(int res) {
        if (closed) {
            return;
        }
        if (res < 0) {
            socket.slot().connectDone(this, Errors.newIOException("connect", res));
            return;
        }
        received = ALLOC.directBuffer(FIRST_READ_BYTES);
        socket.slot().connectDone(this, null);
        if (!closed && socket.tls() != null) {
            // After the connect, so that the slot takes a failure here as the handshake's.
            try {
                tls = new RingTls(socket.tls().newEngine(ALLOC, address.getPort()), ALLOC);
                tls.begin();
            } catch (SSLException | RuntimeException e) {
                failed(e);
                return;
            }
            // The client speaks first: its hello goes out before the first read.
            pumpTls();
        }
        if (!closed) {
            receive();
        }
    }

    private void receive() {
        if (received.writableBytes() < readBytes) {
            received.discardSomeReadBytes();
            received.ensureWritable(readBytes);
        }
        int length = Math.min(received.writableBytes(), MAX_READ_BYTES);
        long memory = received.memoryAddress() + received.writerIndex();
        if (lastReceive == null || memory != lastReceiveMemory || length != lastReceiveLength) {
            lastReceive = op(OP_RECV, fd, 0, memory, length, 0, RECV_POLL_FIRST);
            lastReceiveMemory = memory;
            lastReceiveLength = length;
        }
        submit(lastReceive);
    }

    private void read(int res) {
        if (closed) {
            return;
        }
        if (res > 0) {
            if (res == received.writableBytes() && readBytes < MAX_READ_BYTES) {
                // A read that filled its buffer: the next gets a bigger one.
                readBytes *= 2;
            }
            received.writerIndex(received.writerIndex() + res);
            if (tls != null) {
                pumpTls();
            } else {
                decoder.arrived(res);
                decodeAll(received);
            }
            if (!closed) {
                receive();
            }
        } else if (res == 0) {
            peerGone = true;
            ended();
        } else {
            peerGone = true;
            failed(Errors.newIOException("recv", res));
        }
    }

    /**
     * Runs the TLS engine as far as it goes: sends what it has to send, tells the slot when the
     * handshake has ended, and decrypts what has arrived for the decoder. A callback of the slot
     * may close the connection, after which the engine is not touched again.
     */
    private void pumpTls() {
        try {
            while (!closed) {
                HandshakeStatus status = tls.status();
                if (status == HandshakeStatus.NEED_TASK) {
                    tls.runTasks();
                    continue;
                }
                if (status == HandshakeStatus.NEED_WRAP) {
                    ByteBuf records = tls.wrapHandshake();
                    if (records == null) {
                        return;
                    }
                    queue(records);
                    continue;
                }
                if (tls.handshakeEnded()) {
                    socket.slot().handshakeDone(this, null);
                    continue;
                }
                int before = received.readableBytes();
                boolean handshaking = tls.handshaking();
                int produced = tls.unwrap(received);
                if (produced > 0) {
                    decoder.arrived(produced);
                    decodeAll(tls.plain());
                    if (closed) {
                        return;
                    }
                }
                tls.decoded();
                if (tls.inboundDone()) {
                    // close_notify: the end of the stream, as the socket's end is.
                    ended();
                    return;
                }
                if (produced == 0
                        && received.readableBytes() == before
                        && !(handshaking && tls.status() != HandshakeStatus.NEED_UNWRAP)) {
                    // A record cut short, or nothing at all: the next read brings the rest.
                    return;
                }
            }
        } catch (SSLException e) {
            failed(e);
        }
    }

    /** Hands the slot every response {@code bytes} complete, as a decoder in a pipeline would. */
    private void decodeAll(ByteBuf bytes) {
        while (!closed && bytes.isReadable()) {
            int before = bytes.readableBytes();
            Object outcome;
            try {
                outcome = decoder.decodeNext(bytes);
            } catch (DecoderException e) {
                failed(e);
                return;
            } catch (RuntimeException e) {
                failed(new DecoderException(e));
                return;
            }
            if (outcome != null) {
                socket.slot().responded(this, outcome);
            } else if (before == bytes.readableBytes()) {
                return;
            }
        }
    }

    /** The server closed: a response the close delimits is complete, one it cut is an error. */
    private void ended() {
        Object outcome;
        try {
            outcome = decoder.decodeAtEnd();
        } catch (ResponseFramingException cut) {
            failed(cut);
            return;
        }
        if (outcome != null) {
            socket.slot().responded(this, outcome);
        }
        if (!closed) {
            socket.slot().ended(this);
        }
        close();
    }

    private void failed(Throwable cause) {
        socket.slot().failed(this, cause);
        close();
    }

    @Override
    public boolean isWritable() {
        return gathered == null || gathered.readableBytes() < HIGH_WATER_BYTES;
    }

    @Override
    public void write(ByteBuf request) {
        if (closed) {
            request.release();
            return;
        }
        if (tls == null) {
            queue(request);
            return;
        }
        ByteBuf records;
        try {
            records = tls.wrap(request);
        } catch (SSLException e) {
            // Told from the loop, not from inside the slot's own write.
            socket.loop()
                    .execute(
                            () -> {
                                if (!closed) {
                                    failed(e);
                                }
                            });
            return;
        } finally {
            request.release();
        }
        queue(records);
    }

    /** Sends {@code bytes} (taken over) now, or gathers them for after the send in the ring. */
    private void queue(ByteBuf bytes) {
        if (sending == null) {
            send(bytes.hasMemoryAddress() ? bytes : direct(bytes));
            return;
        }
        if (gathered == null) {
            gathered = ALLOC.directBuffer(Math.max(FIRST_GATHER_BYTES, bytes.readableBytes()));
        }
        gathered.writeBytes(bytes);
        bytes.release();
    }

    /** A copy of {@code bytes} (released) in memory the kernel can be given an address of. */
    private static ByteBuf direct(ByteBuf bytes) {
        ByteBuf copy = ALLOC.directBuffer(bytes.readableBytes());
        copy.writeBytes(bytes);
        bytes.release();
        return copy;
    }

    private void send(ByteBuf bytes) {
        sending = bytes;
        long memory = bytes.memoryAddress() + bytes.readerIndex();
        int length = bytes.readableBytes();
        if (lastSend == null || memory != lastSendMemory || length != lastSendLength) {
            lastSend = op(OP_SEND, fd, 0, memory, length, MSG_NOSIGNAL, (short) 0);
            lastSendMemory = memory;
            lastSendLength = length;
        }
        submit(lastSend);
    }

    private void sent(int res) {
        if (closed) {
            if (closeAfterSend) {
                closeAfterSend = false;
                submit(op(OP_CLOSE, fd, 0, 0, 0, 0, (short) 0));
                fd = -1;
            }
            return;
        }
        if (res < 0) {
            peerGone = true;
            failed(Errors.newIOException("send", res));
            return;
        }
        sending.skipBytes(res);
        if (sending.isReadable()) {
            send(sending);
            return;
        }
        sending.release();
        sending = null;
        if (gathered == null) {
            return;
        }
        boolean wasWritable = isWritable();
        ByteBuf next = gathered;
        gathered = null;
        send(next);
        if (!wasWritable) {
            socket.slot().writable(this);
        }
    }

    @Override
    public ByteBufAllocator alloc() {
        return ALLOC;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ByteBuf closeNotify = null;
        if (tls != null) {
            if (fd >= 0 && sending == null && !peerGone) {
                closeNotify = tls.closeNotify();
            }
            tls.release();
        }
        if (fd >= 0 && closeNotify != null) {
            // The read in the ring ends at once; the socket closes once close_notify is sent.
            if (pending > 0) {
                shutdown(false);
            }
            closeAfterSend = true;
            send(closeNotify);
            return;
        }
        if (fd >= 0) {
            if (pending > 0) {
                shutdown(true);
            }
            submit(op(OP_CLOSE, fd, 0, 0, 0, 0, (short) 0));
            fd = -1;
        }
        if (pending == 0) {
            releaseBuffers();
            socket.forget(this);
        }
    }

    /**
     * Ends the connect or the read in the ring at once (they hold the socket open): shut down, a
     * read returns the end of input and a connect fails. Without {@code output} the socket can
     * still send (a {@code close_notify}).
     */
    private void shutdown(boolean output) {
        try {
            new Socket(fd).shutdown(true, output);
        } catch (IOException e) {
            // Not connected yet, or already shut down: nothing waits on it then.
        }
    }

    /** The loop is closing with this link still registered: its socket goes now. */
    void closeNow() {
        if (!closed && tls != null) {
            tls.release();
        }
        closed = true;
        closeAfterSend = false;
        if (fd >= 0) {
            try {
                new Socket(fd).close();
            } catch (IOException e) {
                // Closing on the way out: nothing to tell anyone.
            }
            fd = -1;
        }
        if (pending == 0) {
            // Else the kernel may still write into them: better lost than reused meanwhile.
            releaseBuffers();
        }
    }

    private void releaseBuffers() {
        if (received != null) {
            received.release();
            received = null;
        }
        if (sending != null) {
            sending.release();
            sending = null;
        }
        if (gathered != null) {
            gathered.release();
            gathered = null;
        }
    }
}
