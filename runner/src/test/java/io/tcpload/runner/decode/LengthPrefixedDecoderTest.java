package io.tcpload.runner.decode;

import static io.tcpload.runner.codec.ResponseOutcome.FAILURE;
import static io.tcpload.runner.codec.ResponseOutcome.SUCCESS;
import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static io.tcpload.runner.decode.DecoderHarness.concat;
import static io.tcpload.runner.decode.DecoderHarness.oneByteAtATime;
import static io.tcpload.runner.decode.DecoderHarness.run;
import static io.tcpload.runner.decode.DecoderHarness.splitAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LengthPrefixedDecoderTest {

    static Stream<Arguments> corpus() {
        return Stream.of(
                Arguments.of("01_tiny.rsp1.bin", ResponseSpec.defaults(), SUCCESS),
                Arguments.of("02_xml_body.rsp1.bin", Corpus.xmlBodySpec(), SUCCESS),
                Arguments.of("05_json_code.rsp1.bin", Corpus.jsonSpec(), SUCCESS),
                Arguments.of("05_json_code.rsp2.bin", Corpus.jsonSpec(), FAILURE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void corpusResponseGivesTheSameOutcomeAtEverySplit(
            String file, ResponseSpec spec, ResponseOutcome expected) {
        byte[] rsp = Corpus.bytes(file);
        for (boolean single : new boolean[] {true, false}) {
            assertThat(run(ResponseCodecs.of(spec, false, single).newDecoder(), List.of(rsp), true))
                    .containsExactly(expected);
            for (int cut = 1; cut < rsp.length; cut++) {
                assertThat(
                                run(
                                        ResponseCodecs.of(spec, false, single).newDecoder(),
                                        splitAt(rsp, cut),
                                        false))
                        .as("cut at %d", cut)
                        .containsExactly(expected);
            }
            assertThat(
                            run(
                                    ResponseCodecs.of(spec, false, single).newDecoder(),
                                    oneByteAtATime(rsp),
                                    false))
                    .containsExactly(expected);
        }
    }

    @Test
    void pipelinedResponsesAllComeOutInOrderAtEverySplit() {
        byte[] ok = Corpus.bytes("05_json_code.rsp1.bin");
        byte[] ko = Corpus.bytes("05_json_code.rsp2.bin");
        byte[] all = concat(ok, ko, ok, ok, ko);
        List<ResponseOutcome> expected = List.of(SUCCESS, FAILURE, SUCCESS, SUCCESS, FAILURE);
        assertThat(
                        run(
                                ResponseCodecs.of(Corpus.jsonSpec(), false, false).newDecoder(),
                                List.of(all),
                                false))
                .isEqualTo(expected);
        for (int a = 1; a < all.length; a += 7) {
            for (int b = a; b < all.length; b += 11) {
                assertThat(
                                run(
                                        ResponseCodecs.of(Corpus.jsonSpec(), false, false)
                                                .newDecoder(),
                                        splitAt(all, a, b),
                                        false))
                        .as("cuts at %d and %d", a, b)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void extraBytesInTheSameReadFailTheSingleResponse() {
        byte[] rsp = concat(Corpus.bytes("01_tiny.rsp1.bin"), ascii("abc"));
        EmbeddedChannel ch =
                new EmbeddedChannel(
                        ResponseCodecs.of(ResponseSpec.defaults(), false, true).newDecoder());
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(rsp)))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("3 bytes after a complete response");
        assertThat(DecoderHarness.drain(ch)).isEmpty();
    }

    @Test
    void extraBytesInALaterReadFailAfterTheOutcome() {
        EmbeddedChannel ch =
                new EmbeddedChannel(
                        ResponseCodecs.of(ResponseSpec.defaults(), false, true).newDecoder());
        ch.writeInbound(Unpooled.wrappedBuffer(Corpus.bytes("01_tiny.rsp1.bin")));
        assertThat(DecoderHarness.drain(ch)).containsExactly(SUCCESS);
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(ascii("x"))))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("1 byte after a complete response");
    }

    @Test
    void everythingAfterAFramingErrorIsDiscarded() {
        EmbeddedChannel ch =
                new EmbeddedChannel(
                        ResponseCodecs.of(ResponseSpec.defaults(), false, false).newDecoder());
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(ascii("-0000005hello"))))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("response length field '-0000005' is negative");
        ch.writeInbound(Unpooled.wrappedBuffer(Corpus.bytes("01_tiny.rsp1.bin")));
        ch.finish();
        assertThat(DecoderHarness.drain(ch)).isEmpty();
    }

    @Test
    void responsesBeforeAnErrorInTheSameReadStillComeOut() {
        byte[] bytes = concat(Corpus.bytes("01_tiny.rsp1.bin"), ascii("0000000x"));
        EmbeddedChannel ch =
                new EmbeddedChannel(
                        ResponseCodecs.of(ResponseSpec.defaults(), false, false).newDecoder());
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(bytes)))
                .hasMessage("response length field '0000000x' is not a number");
        assertThat(DecoderHarness.drain(ch)).containsExactly(SUCCESS);
    }

    @Test
    void closeBeforeACompleteResponseIsAFramingErrorAndFiresNothing() {
        byte[] rsp = Corpus.bytes("01_tiny.rsp1.bin");
        assertThat(
                        run(
                                ResponseCodecs.of(ResponseSpec.defaults(), false, true)
                                        .newDecoder(),
                                List.of(),
                                true))
                .isEmpty();
        for (int len = 1; len < rsp.length; len++) {
            byte[] part = java.util.Arrays.copyOf(rsp, len);
            EmbeddedChannel ch =
                    new EmbeddedChannel(
                            ResponseCodecs.of(ResponseSpec.defaults(), false, false).newDecoder());
            ch.writeInbound(Unpooled.wrappedBuffer(part));
            assertThatThrownBy(ch::finish)
                    .as("%d bytes then close", len)
                    .isInstanceOf(ResponseFramingException.class)
                    .hasMessage("connection closed before a full response");
            assertThat(DecoderHarness.drain(ch)).isEmpty();
        }
    }

    @Test
    void hostileLengthFailsOnTheHeadWithoutAllocatingTheBody() {
        ResponseSpec spec =
                Corpus.withFraming(
                        10, 1, 10, LengthType.BODY, ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES);
        DecoderHarness.MeasuringAllocator alloc = new DecoderHarness.MeasuringAllocator();
        EmbeddedChannel ch =
                DecoderHarness.channel(ResponseCodecs.of(spec, false, false).newDecoder(), alloc);
        ch.writeInbound(Unpooled.wrappedBuffer(ascii("99999")));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(ascii("99999body"))))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("9999999999")
                .hasMessageContaining("exceeds max_response_bytes 16777216");
        assertThat(alloc.largestRequest.get()).isLessThan(1024);
    }

    @Test
    void judgesTheHeadWhenAskedTo() {
        ResponseSpec spec =
                new ResponseSpec(
                        16,
                        1,
                        8,
                        LengthType.BODY,
                        CodeType.FIXED,
                        CodeLocation.HEAD,
                        "9 4",
                        9,
                        4,
                        "0000",
                        List.of(),
                        ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES);
        byte[] ok = ascii("000000020000ABCDxy");
        byte[] ko = ascii("000000020001ABCDxy");
        assertThat(
                        run(
                                ResponseCodecs.of(spec, false, false).newDecoder(),
                                List.of(concat(ok, ko)),
                                false))
                .containsExactly(SUCCESS, FAILURE);
    }

    @Test
    void emptyBodyIsJudgedAsAFailureNotAnError() {
        assertThat(
                        run(
                                ResponseCodecs.of(ResponseSpec.defaults(), false, true)
                                        .newDecoder(),
                                List.of(ascii("00000000")),
                                false))
                .containsExactly(FAILURE);
    }
}
