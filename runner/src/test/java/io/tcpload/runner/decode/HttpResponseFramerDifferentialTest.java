package io.tcpload.runner.decode;

import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.tcpload.runner.codec.HttpResponseFramer;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Random valid response streams, cut at random places, framed by our {@link HttpResponseFramer}
 * (and decoded by {@link HttpDecoder}) and by Netty's own HTTP client codec and aggregator: both
 * must see the same statuses and bodies.
 */
class HttpResponseFramerDifferentialTest {
    private static final int ROUNDS = 25;
    private static final int RESPONSES_PER_ROUND = 24;
    private static final int[] STATUSES = {200, 200, 200, 201, 204, 301, 304, 400, 404, 500, 503};

    /** What one framer saw of one response. */
    private record Seen(int status, byte[] body) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Seen s && s.status == status && Arrays.equals(s.body, body);
        }

        @Override
        public int hashCode() {
            return 31 * status + Arrays.hashCode(body);
        }

        @Override
        public String toString() {
            return status + " with " + body.length + " body bytes";
        }
    }

    @Test
    void agreesWithNettysCodecOnRandomResponseStreams() {
        int compared = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long seed = 0x5eed0000L + round;
            Random random = new Random(seed);
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            boolean lastClosesConnection = random.nextBoolean();
            for (int i = 0; i < RESPONSES_PER_ROUND; i++) {
                boolean last = i == RESPONSES_PER_ROUND - 1;
                stream.writeBytes(randomResponse(random, last && lastClosesConnection));
            }
            List<byte[]> pieces = randomPieces(random, stream.toByteArray());

            List<Seen> ours = frameWithOurs(pieces);
            List<Seen> netty = frameWithNetty(pieces, RESPONSES_PER_ROUND);

            assertThat(ours).as("seed %x", seed).hasSize(RESPONSES_PER_ROUND).isEqualTo(netty);
            compared += ours.size();
        }
        assertThat(compared).isEqualTo(ROUNDS * RESPONSES_PER_ROUND);
    }

    /**
     * Our framer, driven as {@link HttpDecoder} drives it (the pieces cumulated in one buffer,
     * parsed until it needs more, the close told last), and each response's status and body copied
     * while they are readable; and the decoder itself on the same pieces, which must fire one
     * outcome per framed response, with the status class of the same responses.
     */
    private static List<Seen> frameWithOurs(List<byte[]> pieces) {
        List<Seen> seen = new ArrayList<>();
        HttpResponseFramer framer = new HttpResponseFramer(1 << 20, false, Long.MAX_VALUE);
        ByteBuf cumulation = Unpooled.buffer();
        try {
            for (byte[] piece : pieces) {
                cumulation.writeBytes(piece);
                while (framer.parse(cumulation)) {
                    seen.add(seen(framer));
                }
                cumulation.discardReadBytes();
            }
            if (framer.finishOnClose()) {
                seen.add(seen(framer));
            }
        } finally {
            framer.release();
            cumulation.release();
        }

        List<ResponseOutcome> outcomes =
                DecoderHarness.run(
                        ResponseCodecs.of(Corpus.httpSpec(), true, false).newDecoder(),
                        pieces,
                        true);
        assertThat(outcomes).hasSameSizeAs(seen);
        assertThat(outcomes)
                .extracting(ResponseOutcome::non2xx3xx)
                .isEqualTo(seen.stream().map(s -> s.status() < 200 || s.status() > 399).toList());
        return seen;
    }

    private static Seen seen(HttpResponseFramer framer) {
        return new Seen(
                framer.statusCode(),
                ByteBufUtil.getBytes(
                        framer.bodyBuffer(), framer.bodyIndex(), framer.bodyLength(), true));
    }

    private static List<Seen> frameWithNetty(List<byte[]> pieces, int requests) {
        EmbeddedChannel ch =
                new EmbeddedChannel(new HttpClientCodec(), new HttpObjectAggregator(1 << 20));
        for (int i = 0; i < requests; i++) {
            // The client codec pairs responses with request methods, so send as many requests.
            ch.writeOutbound(
                    new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/"));
        }
        for (Object o; (o = ch.readOutbound()) != null; ) {
            ReferenceCountUtil.release(o);
        }
        for (byte[] piece : pieces) {
            ch.writeInbound(Unpooled.wrappedBuffer(piece));
        }
        ch.finish();
        List<Seen> seen = new ArrayList<>();
        for (Object o; (o = ch.readInbound()) != null; ) {
            FullHttpResponse response = (FullHttpResponse) o;
            assertThat(response.decoderResult().isSuccess())
                    .as("Netty: %s", response.decoderResult())
                    .isTrue();
            if (response.status().code() >= 200) { // ours skips interim responses
                seen.add(
                        new Seen(
                                response.status().code(),
                                ByteBufUtil.getBytes(response.content())));
            }
            response.release();
        }
        return seen;
    }

    private static byte[] randomResponse(Random random, boolean closeDelimited) {
        int status = STATUSES[random.nextInt(STATUSES.length)];
        if (closeDelimited && (status == 204 || status == 304)) {
            status = 200;
        }
        boolean noBody = status == 204 || status == 304;
        byte[] body = noBody ? new byte[0] : randomBody(random);
        boolean chunked = !noBody && !closeDelimited && random.nextBoolean();

        StringBuilder head = new StringBuilder();
        // Transfer-Encoding is not allowed in HTTP/1.0.
        head.append(!chunked && random.nextInt(4) == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
                .append(status)
                .append(
                        switch (random.nextInt(5)) {
                            case 0 -> " X";
                            // A status line longer than the framer's window.
                            case 1 -> " " + "R".repeat(500 + random.nextInt(100));
                            default -> " Reason Phrase";
                        })
                .append("\r\n");
        List<String> headers = new ArrayList<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            // Sometimes long enough for the head to go on past the framer's 512-byte window.
            headers.add(
                    randomCase(random, "X-Extra-" + i)
                            + ":"
                            + " ".repeat(random.nextInt(3))
                            + "v"
                            + random.nextInt(1000)
                            + (random.nextInt(3) == 0 ? "w".repeat(random.nextInt(300)) : ""));
        }
        if (random.nextInt(3) == 0) {
            // A line the framer must look into (it starts as Content-Length does), shorter or
            // longer than its window.
            headers.add(
                    "Content-Type: text/plain; x="
                            + "y".repeat(random.nextBoolean() ? 80 : 440 + random.nextInt(160)));
        }
        if (chunked) {
            headers.add(randomCase(random, "Transfer-Encoding") + ":" + blanks(random) + "chunked");
        } else if (!closeDelimited && !noBody) {
            headers.add(randomCase(random, "Content-Length") + ":" + blanks(random) + body.length);
        } else if (closeDelimited) {
            headers.add("Connection:" + blanks(random) + "close");
        }
        java.util.Collections.shuffle(headers, random);
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("\r\n");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (random.nextInt(8) == 0) {
            out.writeBytes(ascii("HTTP/1.1 100 Continue\r\n\r\n"));
        }
        out.writeBytes(ascii(head.toString()));
        if (chunked) {
            writeChunked(random, body, out);
        } else {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /**
     * One blank mostly; sometimes enough to make the header line about as long as the framer's
     * 512-byte window, on either side of it.
     */
    private static String blanks(Random random) {
        return random.nextInt(4) == 0 ? " ".repeat(470 + random.nextInt(80)) : " ";
    }

    private static void writeChunked(Random random, byte[] body, ByteArrayOutputStream out) {
        int at = 0;
        while (at < body.length) {
            int size =
                    Math.min(body.length - at, 1 + random.nextInt(random.nextBoolean() ? 16 : 700));
            String hex = Integer.toHexString(size);
            out.writeBytes(ascii(random.nextBoolean() ? hex.toUpperCase() : hex));
            if (random.nextInt(4) == 0) {
                out.writeBytes(ascii(";ext=" + random.nextInt(100)));
            }
            out.writeBytes(ascii("\r\n"));
            out.write(body, at, size);
            out.writeBytes(ascii("\r\n"));
            at += size;
        }
        out.writeBytes(ascii(random.nextInt(4) == 0 ? "0;final\r\n" : "0\r\n"));
        if (random.nextInt(3) == 0) {
            out.writeBytes(ascii("X-Trailer: t" + random.nextInt(100) + "\r\n"));
        }
        out.writeBytes(ascii("\r\n"));
    }

    private static byte[] randomBody(Random random) {
        int length =
                switch (random.nextInt(4)) {
                    case 0 -> 0;
                    case 1 -> random.nextInt(16);
                    case 2 -> random.nextInt(600);
                    default -> random.nextInt(5000);
                };
        byte[] body = new byte[length];
        random.nextBytes(body);
        return body;
    }

    private static String randomCase(Random random, String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (char c : name.toCharArray()) {
            sb.append(random.nextBoolean() ? Character.toLowerCase(c) : Character.toUpperCase(c));
        }
        return sb.toString();
    }

    /** The stream cut at up to 60 random offsets (sometimes many tiny pieces). */
    private static List<byte[]> randomPieces(Random random, byte[] all) {
        TreeSet<Integer> cuts = new TreeSet<>();
        for (int i = random.nextInt(60); i > 0; i--) {
            cuts.add(1 + random.nextInt(all.length - 1));
        }
        int start = random.nextInt(all.length);
        for (int i = 0; i < 40 && start + i < all.length; i++) {
            cuts.add(start + i); // a run of single bytes somewhere
        }
        cuts.remove(0);
        return DecoderHarness.splitAt(all, cuts.stream().mapToInt(Integer::intValue).toArray());
    }
}
