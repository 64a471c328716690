package io.tcpload.runner.decode;

import static io.tcpload.runner.codec.ResponseOutcome.FAILURE;
import static io.tcpload.runner.codec.ResponseOutcome.FAILURE_NON_2XX_3XX;
import static io.tcpload.runner.codec.ResponseOutcome.SUCCESS;
import static io.tcpload.runner.codec.ResponseOutcome.SUCCESS_NON_2XX_3XX;
import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static io.tcpload.runner.decode.DecoderHarness.concat;
import static io.tcpload.runner.decode.DecoderHarness.oneByteAtATime;
import static io.tcpload.runner.decode.DecoderHarness.run;
import static io.tcpload.runner.decode.DecoderHarness.splitAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.codec.HttpResponseFramer;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class HttpDecoderTest {
    private static final String OK_JSON = "{\"rspCd\":\"0000\",\"msg\":\"ok\"}";

    private static ChannelHandler decoder(boolean single) {
        return ResponseCodecs.of(Corpus.httpSpec(), true, single).newDecoder();
    }

    private static ChannelHandler decoder(ResponseSpec spec) {
        return ResponseCodecs.of(spec, true, false).newDecoder();
    }

    /** The same outcomes however the bytes are cut: whole, in two at every offset, byte by byte. */
    private static void assertAtEverySplit(
            Supplier<ChannelHandler> decoders,
            byte[] bytes,
            boolean close,
            ResponseOutcome... expected) {
        assertThat(run(decoders.get(), List.of(bytes), close)).containsExactly(expected);
        for (int cut = 1; cut < bytes.length; cut++) {
            assertThat(run(decoders.get(), splitAt(bytes, cut), close))
                    .as("cut at %d", cut)
                    .containsExactly(expected);
        }
        assertThat(run(decoders.get(), oneByteAtATime(bytes), close)).containsExactly(expected);
    }

    private static ResponseFramingException failure(ChannelHandler decoder, byte[] bytes) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(bytes));
            ch.finish();
        } catch (ResponseFramingException e) {
            return e;
        }
        throw new AssertionError("no framing error");
    }

    private static byte[] contentLength(int status, String body) {
        return ascii(
                "HTTP/1.1 "
                        + status
                        + " X\r\nContent-Length: "
                        + body.length()
                        + "\r\n\r\n"
                        + body);
    }

    @Test
    void corpusResponseIsSuccessAtEverySplit() {
        byte[] rsp = Corpus.bytes("09_http.rsp1.bin");
        assertAtEverySplit(() -> decoder(true), rsp, false, SUCCESS);
        assertAtEverySplit(() -> decoder(false), rsp, true, SUCCESS);
    }

    @Test
    void chunkedBodyIsJudgedWhole() {
        // The code spans two chunks; wrktcp judged only the last chunk and saw a failure.
        byte[] rsp =
                ascii(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "c;name=value\r\n{\"rspCd\":\"00\r\n"
                                + "0F\r\n00\",\"msg\":\"ok\"}\r\n"
                                + "0;last\r\nX-Trailer: t\r\n\r\n");
        assertAtEverySplit(() -> decoder(true), rsp, false, SUCCESS);
    }

    @Test
    void pipelinedResponsesOfEveryKindComeOutInOrder() {
        byte[] all =
                concat(
                        contentLength(200, OK_JSON),
                        ascii("HTTP/1.1 100 Continue\r\n\r\n"),
                        ascii("HTTP/1.1 102 Processing\r\nX: y\r\n\r\n"),
                        contentLength(200, "{\"rspCd\":\"9999\"}"),
                        ascii("HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n"),
                        ascii("HTTP/1.1 200 OK\r\ntransfer-encoding: CHUNKED\r\n\r\n"),
                        ascii("4\r\n{\"rs\r\n1b\r\npCd\":\"0000\",\"msg\":\"chunk\"}\r\n0\r\n\r\n"),
                        ascii("HTTP/1.0 304 Not Modified\r\nContent-Length: 99\r\n\r\n"),
                        contentLength(503, OK_JSON),
                        ascii("HTTP/1.1 200 OK\nContent-Length: 16\n\n{\"rspCd\":\"0000\"}"),
                        ascii("HTTP/1.1 404 Not Found\r\nX-Any: 1\r\n\r\n" + OK_JSON));
        assertAtEverySplit(
                () -> decoder(false),
                all,
                true,
                SUCCESS,
                FAILURE,
                FAILURE, // 204: no body, so no code
                SUCCESS,
                FAILURE, // 304
                SUCCESS_NON_2XX_3XX,
                SUCCESS,
                SUCCESS_NON_2XX_3XX); // close-delimited, completed by the close
    }

    @Test
    void emptyBodyIsAFailureNotACrash() {
        assertThat(run(decoder(true), List.of(contentLength(200, "")), false))
                .containsExactly(FAILURE);
        ResponseSpec fixed =
                Corpus.withCode(CodeType.FIXED, CodeLocation.BODY, "1 6", 1, 6, "000000");
        assertThat(run(decoder(fixed), List.of(contentLength(200, "")), false))
                .containsExactly(FAILURE);
        ResponseSpec xml = Corpus.withCode(CodeType.XML, CodeLocation.BODY, "<c>", 0, 0, "0");
        assertThat(run(decoder(xml), List.of(contentLength(200, "")), false))
                .containsExactly(FAILURE);
    }

    @Test
    void statusRuleDecidesAlongsideTheCode() {
        // wrktcp ignored the status: "500 with 000000 KO" was a success.
        byte[] serverError = contentLength(500, OK_JSON);
        assertThat(run(decoder(false), List.of(serverError), false))
                .containsExactly(SUCCESS_NON_2XX_3XX);

        ResponseSpec only2xx = Corpus.jsonSpec("\"rspCd\"", "0000", List.of("2xx"));
        assertThat(run(decoder(only2xx), List.of(serverError), false))
                .containsExactly(FAILURE_NON_2XX_3XX);
        assertThat(run(decoder(only2xx), List.of(contentLength(201, OK_JSON)), false))
                .containsExactly(SUCCESS);

        ResponseSpec exact = Corpus.jsonSpec("\"rspCd\"", "0000", List.of("200", "302"));
        assertThat(
                        run(
                                decoder(exact),
                                List.of(
                                        concat(
                                                contentLength(200, OK_JSON),
                                                contentLength(201, OK_JSON),
                                                contentLength(302, OK_JSON),
                                                contentLength(404, OK_JSON))),
                                false))
                .containsExactly(SUCCESS, FAILURE, SUCCESS, FAILURE_NON_2XX_3XX);
    }

    @Test
    void closeDelimitedBodyCompletesOnClose() {
        byte[] rsp = ascii("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + OK_JSON);
        assertAtEverySplit(() -> decoder(true), rsp, true, SUCCESS);
        // Without the close it is still in progress.
        assertThat(run(decoder(true), List.of(rsp), false)).isEmpty();
    }

    @Test
    void closeRightAfterTheHeadersCompletesAnEmptyCloseDelimitedBody() {
        byte[] rsp = ascii("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
        assertThat(run(decoder(true), List.of(rsp), true)).containsExactly(FAILURE);
    }

    @Test
    void closeInTheMiddleOfAResponseIsAFramingErrorAndFiresNothing() {
        byte[][] cutShort = {
            ascii("HTTP/1.1 200 OK\r\nContent-Le"),
            ascii("HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n{\"rspCd\":\"0000\""),
            ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"rs\r\n"),
            ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n"),
            ascii("HTTP/1.1 100 Continue\r\n\r\n"),
        };
        for (byte[] bytes : cutShort) {
            EmbeddedChannel ch = new EmbeddedChannel(decoder(true));
            ch.writeInbound(Unpooled.wrappedBuffer(bytes));
            assertThatThrownBy(ch::finish)
                    .as(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1))
                    .isInstanceOf(ResponseFramingException.class)
                    .hasMessage("connection closed before a full response");
            assertThat(DecoderHarness.drain(ch)).isEmpty();
        }
    }

    @Test
    void closeBetweenResponsesIsNoError() {
        byte[] full =
                ascii(
                        "HTTP/1.1 200 OK\r\nContent-Length: "
                                + OK_JSON.length()
                                + "\r\n\r\n"
                                + OK_JSON
                                + "\r\n");
        assertThat(run(decoder(false), List.of(full), true)).containsExactly(SUCCESS);
        assertThat(run(decoder(false), List.of(ascii("\r\n")), true)).isEmpty();
        assertThat(run(decoder(false), List.of(), true)).isEmpty();
    }

    @Test
    void headLocationJudgesTheHeaderBlock() {
        // The head block starts after the status line: "X-Ret: 0000" puts the code at 8..11.
        ResponseSpec head = Corpus.withCode(CodeType.FIXED, CodeLocation.HEAD, "8 4", 8, 4, "0000");
        byte[] fixed = ascii("HTTP/1.1 200 OK\r\nX-Ret: 0000\r\nContent-Length: 3\r\n\r\nabc");
        byte[] chunked =
                ascii(
                        "HTTP/1.1 200 OK\r\nX-Ret: 0000\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "3\r\nabc\r\n0\r\n\r\n");
        byte[] closeDelimited = ascii("HTTP/1.1 200 OK\r\nX-Ret: 0001\r\n\r\nabc");
        assertAtEverySplit(
                () -> decoder(head),
                concat(fixed, chunked, closeDelimited),
                true,
                SUCCESS,
                SUCCESS,
                FAILURE);

        ResponseSpec xmlHead =
                Corpus.withCode(CodeType.XML, CodeLocation.HEAD, "Ret: ", 0, 0, "0000");
        // The code runs to the next "</", which the head does not have: a failure, not a crash.
        assertThat(run(decoder(xmlHead), List.of(fixed), false)).containsExactly(FAILURE);
    }

    @Test
    void extraBytesAfterTheSingleResponseAreAnError() {
        byte[] rsp = concat(Corpus.bytes("09_http.rsp1.bin"), ascii("abc"));
        assertThat(failure(decoder(true), rsp)).hasMessage("3 bytes after a complete response");
    }

    @Test
    void malformedResponsesAreFramingErrorsWithTheirValue() {
        String[][] cases = {
            {
                "XMLHEAD0000005120201231<root/>\r\n",
                "malformed HTTP status line 'XMLHEAD0000005120201231<root/>'"
            },
            {"HTTP/1.1 20 OK\r\n\r\n", "malformed HTTP status line 'HTTP/1.1 20 OK'"},
            {"HTTP/1.1 2000 OK\r\n\r\n", "malformed HTTP status line 'HTTP/1.1 2000 OK'"},
            {"HTTP/1.1 099 Low\r\n\r\n", "malformed HTTP status line 'HTTP/1.1 099 Low'"},
            {"HTTP/2.0 200 OK\r\n\r\n", "malformed HTTP status line 'HTTP/2.0 200 OK'"},
            {"HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n", "bad HTTP Content-Length '12a'"},
            {"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "bad HTTP Content-Length '-1'"},
            {"HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n", "empty HTTP Content-Length"},
            {
                "HTTP/1.1 200 OK\r\nContent-Length: 3\r\ncontent-length: 4\r\n\r\n",
                "conflicting HTTP Content-Length headers 3 and 4"
            },
            {
                "HTTP/1.1 200 OK\r\nContent-Length: 9999999999\r\n\r\n",
                "HTTP Content-Length '9999999999' exceeds max_response_bytes 16777216"
            },
            {
                "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "Transfer-Encoding in an HTTP/1.0 response"
            },
            {
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "bad HTTP chunk size line 'zz'"
            },
            {
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\n",
                "bad HTTP chunk size line '5 x'"
            },
            {
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
                "HTTP chunk data not followed by CRLF but 'X\\x0d\\x0a'"
            },
            {
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffff\r\n",
                "HTTP chunk size '7fffffffffff' exceeds max_response_bytes 16777216"
            },
        };
        for (String[] c : cases) {
            assertThat(failure(decoder(false), ascii(c[0])))
                    .as(c[0])
                    .isInstanceOf(ResponseFramingException.class)
                    .hasMessage(c[1]);
        }
    }

    @Test
    void bodiesAboveMaxResponseBytesFailAtOnce() {
        ResponseSpec d = Corpus.httpSpec();
        ResponseSpec small =
                new ResponseSpec(
                        d.headLength(),
                        d.lengthBegin(),
                        d.lengthWidth(),
                        d.lengthType(),
                        d.codeType(),
                        d.codeLocation(),
                        d.codeTag(),
                        0,
                        0,
                        d.codeSuccess(),
                        List.of(),
                        10);
        assertThat(run(decoder(small), List.of(contentLength(200, "0123456789")), false))
                .containsExactly(FAILURE);
        assertThat(failure(decoder(small), contentLength(200, "0123456789X")))
                .hasMessage("HTTP Content-Length '11' exceeds max_response_bytes 10");
        assertThat(
                        failure(
                                decoder(small),
                                ascii(
                                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                + "6\r\n012345\r\n5\r\n")))
                .hasMessage("HTTP chunked body exceeds max_response_bytes 10");
        assertThat(failure(decoder(small), ascii("HTTP/1.1 200 OK\r\n\r\n0123456789X")))
                .hasMessage("HTTP close-delimited body exceeds max_response_bytes 10");
    }

    @Test
    void hostileChunkSizeFailsWithoutAllocatingIt() {
        DecoderHarness.MeasuringAllocator alloc = new DecoderHarness.MeasuringAllocator();
        EmbeddedChannel ch = DecoderHarness.channel(decoder(false), alloc);
        ch.writeInbound(
                Unpooled.wrappedBuffer(
                        ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(ascii("7fffffffffff\r\n"))))
                .isInstanceOf(ResponseFramingException.class);
        assertThat(alloc.largestRequest.get()).isLessThan(1024);
    }

    @Test
    void oversizeHeaderSectionsAreErrors() {
        byte[] filler = new byte[HttpResponseFramer.MAX_HEADER_BYTES];
        Arrays.fill(filler, (byte) 'a');
        byte[] longLine = concat(ascii("HTTP/1.1 200 OK\r\nX-Long: "), filler);
        assertThat(failure(decoder(false), longLine))
                .hasMessage("HTTP response header section exceeds 65536 bytes");

        List<byte[]> manyHeaders = new ArrayList<>();
        manyHeaders.add(ascii("HTTP/1.1 200 OK\r\n"));
        for (int i = 0; i < 5000; i++) {
            manyHeaders.add(ascii("X-Header-" + i + ": value\r\n"));
        }
        // Fed in pieces, so the cap is met across reads.
        EmbeddedChannel ch = new EmbeddedChannel(decoder(false));
        assertThatThrownBy(
                        () -> {
                            for (byte[] piece : manyHeaders) {
                                ch.writeInbound(Unpooled.wrappedBuffer(piece));
                            }
                        })
                .hasMessage("HTTP response header section exceeds 65536 bytes");

        byte[] trailers =
                concat(
                        ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-T: "),
                        filler);
        assertThat(failure(decoder(false), trailers))
                .hasMessage("HTTP trailer section exceeds 65536 bytes");

        byte[] chunkLine =
                concat(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;"), filler);
        assertThat(failure(decoder(false), chunkLine))
                .hasMessage("HTTP chunk size line exceeds 4096 bytes");
    }

    @Test
    void everythingAfterAFramingErrorIsDiscarded() {
        EmbeddedChannel ch = new EmbeddedChannel(decoder(false));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(ascii("HTTP/1.1 xyz\r\n"))))
                .isInstanceOf(ResponseFramingException.class);
        ch.writeInbound(Unpooled.wrappedBuffer(Corpus.bytes("09_http.rsp1.bin")));
        ch.writeInbound(Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\n\r\n")));
        ch.finish();
        assertThat(DecoderHarness.drain(ch)).isEmpty();
    }

    @Test
    void transferEncodingWinsOverContentLength() {
        byte[] rsp =
                ascii(
                        "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                                + "10\r\n{\"rspCd\":\"0000\"}\r\n0\r\n\r\n");
        assertAtEverySplit(() -> decoder(true), rsp, false, SUCCESS);
    }
}
