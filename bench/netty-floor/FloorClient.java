import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The least a keep-alive HTTP client on Netty's io_uring transport can do: one event loop, one
 * inbound handler per connection, no decoder, no statistics, no pacing. It reads the first
 * response's length once (its head and its Content-Length) and from then on only counts bytes,
 * which is right for a server that answers every request with the same bytes but for the date
 * (nginx serving one file): so it measures Netty's own cost per request, the floor under any
 * engine built on it.
 *
 * <p>Usage: {@code java -cp RUNNER_JAR:CLASSES FloorClient PORT CONNECTIONS MILLISECONDS}; prints
 * {@code N requests in S s}.
 */
public final class FloorClient {
    private static final LongAdder DONE = new LongAdder();
    private static volatile boolean stopping;

    /** The length of every response, learned from the first one; 0 until then. */
    private static volatile int responseBytes;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int connections = Integer.parseInt(args[1]);
        long durationMs = Long.parseLong(args[2]);
        byte[] request = request(port);
        ByteBuf template =
                Unpooled.unreleasableBuffer(
                        Unpooled.directBuffer(request.length).writeBytes(request));
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        try {
            Bootstrap bootstrap =
                    new Bootstrap()
                            .group(group)
                            .channel(IoUringSocketChannel.class)
                            .option(ChannelOption.TCP_NODELAY, true)
                            .handler(
                                    new ChannelInitializer<Channel>() {
                                        @Override
                                        protected void initChannel(Channel channel) {
                                            channel.pipeline().addLast(new Counter(template));
                                        }
                                    });
            for (int i = 0; i < connections; i++) {
                bootstrap.connect("127.0.0.1", port).sync();
            }
            long startNs = System.nanoTime();
            Thread.sleep(durationMs);
            stopping = true;
            double seconds = (System.nanoTime() - startNs) / 1e9;
            System.out.printf("%d requests in %.2fs%n", DONE.sum(), seconds);
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).sync();
        }
    }

    /** The request both floor clients send, again and again: nginx's index page. */
    static byte[] request(int port) {
        return ("GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The length of a response from its first bytes: its head up to the blank line and its
     * Content-Length; 0 while the head is not whole. Shared with RingFloorClient.
     */
    static int responseLength(CharSequence firstBytes) {
        String text = firstBytes.toString();
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return 0;
        }
        String head = text.substring(0, end).toLowerCase(Locale.ROOT);
        int at = head.indexOf("\r\ncontent-length:");
        if (at < 0) {
            throw new IllegalStateException("the first response has no Content-Length");
        }
        int valueEnd = head.indexOf("\r\n", at + 2);
        String value = head.substring(at + 17, valueEnd < 0 ? head.length() : valueEnd).trim();
        return end + 4 + Integer.parseInt(value);
    }

    /** One connection: sends the request again as soon as a whole response has come. */
    private static final class Counter extends ChannelInboundHandlerAdapter {
        private final ByteBuf template;
        private final StringBuilder firstHead = new StringBuilder();
        private long pendingBytes;

        Counter(ByteBuf template) {
            this.template = template;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(template.duplicate(), ctx.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            if (responseBytes == 0) {
                learnLength(in);
            }
            pendingBytes += in.readableBytes();
            in.release();
            int length = responseBytes;
            while (length > 0 && pendingBytes >= length) {
                pendingBytes -= length;
                DONE.increment();
                if (!stopping) {
                    ctx.writeAndFlush(template.duplicate(), ctx.voidPromise());
                }
            }
        }

        /** The head up to its blank line, then its Content-Length; only the first response. */
        private void learnLength(ByteBuf in) {
            firstHead.append(
                    in.toString(in.readerIndex(), in.readableBytes(), StandardCharsets.ISO_8859_1));
            responseBytes = responseLength(firstHead);
        }
    }
}
