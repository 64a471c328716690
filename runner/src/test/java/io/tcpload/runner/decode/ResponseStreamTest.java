package io.tcpload.runner.decode;

import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static io.tcpload.runner.decode.DecoderHarness.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a decoder tells its connection besides the outcomes: whether each response was the
 * connection's last, where it began and ended in the byte stream, and whether a response is under
 * way.
 */
class ResponseStreamTest {
    /** One fired response as the handler after the decoder saw it. */
    record Seen(ResponseOutcome outcome, boolean closes, long startOffset) {}

    /** Records what the decoder says while each outcome is handled, as the engine reads it. */
    private static final class Recorder extends ChannelInboundHandlerAdapter {
        final ResponseDecoder decoder;
        final List<Seen> seen = new ArrayList<>();
        final List<Long> endOffsets = new ArrayList<>();

        Recorder(ResponseDecoder decoder) {
            this.decoder = decoder;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            seen.add(
                    new Seen(
                            (ResponseOutcome) msg,
                            decoder.closesConnection(),
                            decoder.responseStartOffset()));
            endOffsets.add(decoder.responseEndOffset());
        }
    }

    private static Recorder http(byte[]... reads) {
        ResponseDecoder decoder =
                ResponseCodecs.of(Corpus.httpSpec(), true, false).newDecoder(bytes -> {});
        Recorder recorder = new Recorder(decoder);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, recorder);
        for (byte[] read : reads) {
            ch.writeInbound(Unpooled.wrappedBuffer(read));
        }
        ch.finish();
        return recorder;
    }

    private static final String OK_JSON = "{\"rspCd\":\"0000\"}";

    private static String withLength(String statusLine, String headers) {
        return statusLine
                + "\r\n"
                + headers
                + "Content-Length: "
                + OK_JSON.length()
                + "\r\n\r\n"
                + OK_JSON;
    }

    @ParameterizedTest(name = "{0} / {1} -> closes {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "HTTP/1.1 200 OK | '' | false",
                "HTTP/1.1 200 OK | Connection: close\\r\\n | true",
                "HTTP/1.1 200 OK | connection:   Keep-Alive ,  CLOSE \\r\\n | true",
                "HTTP/1.1 200 OK | Connection: keep-alive\\r\\n | false",
                "HTTP/1.1 200 OK | Connection: upgrade\\r\\nConnection: close\\r\\n | true",
                "HTTP/1.1 200 OK | X-Connection: close\\r\\n | false",
                "HTTP/1.1 200 OK | Connection: closed\\r\\n | false",
                "HTTP/1.0 200 OK | '' | true",
                "HTTP/1.0 200 OK | Connection: keep-alive\\r\\n | false",
                "HTTP/1.0 200 OK | Connection: Keep-Alive, close\\r\\n | true",
            })
    void aResponseSaysWhetherItIsTheConnectionsLast(
            String statusLine, String headers, boolean closes) {
        String unescaped = headers.replace("\\r\\n", "\r\n");
        Recorder recorder = http(ascii(withLength(statusLine, unescaped)));
        assertThat(recorder.seen).containsExactly(new Seen(ResponseOutcome.SUCCESS, closes, 0));
    }

    @Test
    void aBodyEndedByTheCloseIsTheConnectionsLast() {
        Recorder recorder = http(ascii("HTTP/1.1 200 OK\r\n\r\n" + OK_JSON));
        assertThat(recorder.seen).containsExactly(new Seen(ResponseOutcome.SUCCESS, true, 0));
    }

    @Test
    void anInterimResponsesConnectionHeaderIsNotTheFinalOnes() {
        Recorder recorder =
                http(
                        ascii(
                                "HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\n"
                                        + withLength("HTTP/1.1 200 OK", "")));
        assertThat(recorder.seen).containsExactly(new Seen(ResponseOutcome.SUCCESS, false, 0));
    }

    @Test
    void eachResponseTellsWhereItBeganPastTheLineBreaksBetweenResponses() {
        byte[] first = ascii(withLength("HTTP/1.1 200 OK", ""));
        byte[] second = ascii("\r\n\r\n" + withLength("HTTP/1.1 200 OK", "Connection: close\r\n"));
        // Both in one read, then a chunked one alone.
        byte[] chunked =
                ascii(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + Integer.toHexString(OK_JSON.length())
                                + "\r\n"
                                + OK_JSON
                                + "\r\n0\r\n\r\n");
        Recorder recorder = http(concat(first, second), chunked);
        assertThat(recorder.seen)
                .containsExactly(
                        new Seen(ResponseOutcome.SUCCESS, false, 0),
                        new Seen(ResponseOutcome.SUCCESS, true, first.length + 4),
                        new Seen(ResponseOutcome.SUCCESS, false, first.length + second.length));
    }

    @Test
    void lengthPrefixedResponsesNeverCloseAndTellWhereTheyBegan() {
        byte[] rsp = Corpus.bytes("01_tiny.rsp1.bin");
        ResponseDecoder decoder =
                ResponseCodecs.of(ResponseSpec.defaults(), false, false).newDecoder(bytes -> {});
        Recorder recorder = new Recorder(decoder);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, recorder);
        ch.writeInbound(Unpooled.wrappedBuffer(concat(rsp, rsp, java.util.Arrays.copyOf(rsp, 3))));
        assertThat(decoder.bytesReceived()).isEqualTo(2L * rsp.length + 3);
        assertThat(decoder.inResponse()).isTrue();
        ch.writeInbound(Unpooled.wrappedBuffer(java.util.Arrays.copyOfRange(rsp, 3, rsp.length)));
        assertThat(decoder.inResponse()).isFalse();
        assertThat(recorder.seen)
                .containsExactly(
                        new Seen(ResponseOutcome.SUCCESS, false, 0),
                        new Seen(ResponseOutcome.SUCCESS, false, rsp.length),
                        new Seen(ResponseOutcome.SUCCESS, false, 2L * rsp.length));
        ch.finish();
    }

    @Test
    void eachResponseTellsWhereItEndedThoughOneReadHoldsTheNextToo() {
        byte[] rsp = Corpus.bytes("01_tiny.rsp1.bin");
        ResponseDecoder decoder =
                ResponseCodecs.of(ResponseSpec.defaults(), false, false).newDecoder(bytes -> {});
        Recorder recorder = new Recorder(decoder);
        EmbeddedChannel ch = new EmbeddedChannel(decoder, recorder);
        ch.writeInbound(Unpooled.wrappedBuffer(concat(rsp, rsp, java.util.Arrays.copyOf(rsp, 3))));
        ch.writeInbound(Unpooled.wrappedBuffer(java.util.Arrays.copyOfRange(rsp, 3, rsp.length)));
        assertThat(recorder.endOffsets)
                .containsExactly((long) rsp.length, 2L * rsp.length, 3L * rsp.length);
        ch.finish();
    }

    @Test
    void aBodyEndedByTheCloseEndsWithTheLastByteReceived() {
        byte[] response = ascii("HTTP/1.1 200 OK\r\n\r\n" + OK_JSON);
        Recorder recorder = http(response);
        assertThat(recorder.endOffsets).containsExactly((long) response.length);
    }
}
