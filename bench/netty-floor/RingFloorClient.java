import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.unix.Buffer;
import io.netty.channel.unix.Socket;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoOps;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * FloorClient without Netty's channels: each connection is an {@link IoUringIoHandle} registered
 * straight on the io_uring event loop, submitting its own send and recv operations and handling
 * their completions, with no pipeline, no ByteBuf and no promise. What it costs is the ring and
 * the JVM, so the gap between this and FloorClient is what Netty's channel layer costs.
 *
 * <p>Usage: {@code java -cp RUNNER_JAR:CLASSES RingFloorClient PORT CONNECTIONS MILLISECONDS};
 * prints {@code N requests in S s}.
 */
public final class RingFloorClient {
    private static final byte OP_POLL_ADD = 6;
    private static final byte OP_SEND = 26;
    private static final byte OP_RECV = 27;
    private static final int POLLOUT = 0x004;

    /**
     * A recv is submitted right after its request, before any answer can be there: this flag has
     * the kernel wait for data instead of trying the read first and failing (measured: about 1 µs
     * of system time a request less). Netty refuses IOSQE_CQE_SKIP_SUCCESS, which would also save
     * each send's completion.
     */
    private static final short RECVSEND_POLL_FIRST = 1;
    private static final int RECEIVE_BYTES = 16 * 1024;

    private static volatile boolean stopping;
    private static long done;

    /** The length of every response, learned from the first one; 0 until then. */
    private static int responseBytes;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int connections = Integer.parseInt(args[1]);
        long durationMs = Long.parseLong(args[2]);
        byte[] request = FloorClient.request(port);
        ByteBuffer template = ByteBuffer.allocateDirect(request.length);
        template.put(request).flip();
        long templateAddress = Buffer.memoryAddress(template);
        MultiThreadIoEventLoopGroup group =
                new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        IoEventLoop loop = group.next();
        try {
            InetSocketAddress target = new InetSocketAddress("127.0.0.1", port);
            Connection[] all = new Connection[connections];
            for (int i = 0; i < connections; i++) {
                Connection connection = new Connection(templateAddress, request.length);
                all[i] = connection;
                loop.submit(() -> connection.open(loop, target)).sync();
            }
            long startNs = System.nanoTime();
            Thread.sleep(durationMs);
            stopping = true;
            double seconds = (System.nanoTime() - startNs) / 1e9;
            long requests = loop.submit(() -> done).get();
            System.out.printf("%d requests in %.2fs%n", requests, seconds);
            loop.submit(
                            () -> {
                                for (Connection connection : all) {
                                    connection.registration.cancel();
                                }
                            })
                    .sync();
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }

    /** One connection: sends the request again as soon as a whole response has come. */
    private static final class Connection implements IoUringIoHandle {
        private final long templateAddress;
        private final int templateBytes;
        private final ByteBuffer receive = ByteBuffer.allocateDirect(RECEIVE_BYTES);
        private final long receiveAddress = Buffer.memoryAddress(receive);
        private final StringBuilder firstHead = new StringBuilder();
        private Socket socket;
        private IoRegistration registration;
        private long pendingBytes;

        Connection(long templateAddress, int templateBytes) {
            this.templateAddress = templateAddress;
            this.templateBytes = templateBytes;
        }

        void open(IoEventLoop loop, InetSocketAddress target) {
            try {
                socket = Socket.newSocketStream();
                socket.setTcpNoDelay(true);
                registration = loop.register(this).sync().getNow();
                if (socket.connect(target)) {
                    connected();
                } else {
                    registration.submit(op(OP_POLL_ADD, 0, 0, POLLOUT));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        private IoUringIoOps op(byte opcode, long address, int length, int opFlags) {
            return new IoUringIoOps(
                    opcode,
                    (byte) 0,
                    opcode == OP_RECV ? RECVSEND_POLL_FIRST : 0,
                    socket.intValue(),
                    0L,
                    address,
                    length,
                    opFlags,
                    0L,
                    (short) 0,
                    (short) 0,
                    0,
                    0L);
        }

        private void connected() {
            send();
            registration.submit(op(OP_RECV, receiveAddress, RECEIVE_BYTES, 0));
        }

        private void send() {
            registration.submit(op(OP_SEND, templateAddress, templateBytes, 0));
        }

        @Override
        public void handle(IoRegistration registration, IoEvent ioEvent) {
            IoUringIoEvent event = (IoUringIoEvent) ioEvent;
            int res = event.res();
            switch (event.opcode()) {
                case OP_POLL_ADD:
                    try {
                        if (socket.finishConnect()) {
                            connected();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    break;
                case OP_SEND:
                    if (res != templateBytes) {
                        throw new IllegalStateException("send: " + res);
                    }
                    break;
                case OP_RECV:
                    if (res <= 0) {
                        return;
                    }
                    received(res);
                    registration.submit(op(OP_RECV, receiveAddress, RECEIVE_BYTES, 0));
                    break;
                default:
                    break;
            }
        }

        private void received(int bytes) {
            if (responseBytes == 0) {
                learnLength(bytes);
            }
            pendingBytes += bytes;
            int length = responseBytes;
            while (length > 0 && pendingBytes >= length) {
                pendingBytes -= length;
                done++;
                if (!stopping) {
                    send();
                }
            }
        }

        /** The first response's head, then its length (FloorClient's reading). */
        private void learnLength(int bytes) {
            byte[] copy = new byte[bytes];
            receive.get(0, copy);
            firstHead.append(new String(copy, StandardCharsets.ISO_8859_1));
            responseBytes = FloorClient.responseLength(firstHead);
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }
}
