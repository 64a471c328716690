package io.tcpload.runner.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandler;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseCodecsTest {

    @Test
    void outcomesSplitSuccessAndStatus() {
        assertThat(ResponseOutcome.SUCCESS.success()).isTrue();
        assertThat(ResponseOutcome.SUCCESS.non2xx3xx()).isFalse();
        assertThat(ResponseOutcome.FAILURE.success()).isFalse();
        assertThat(ResponseOutcome.FAILURE.non2xx3xx()).isFalse();
        assertThat(ResponseOutcome.SUCCESS_NON_2XX_3XX.success()).isTrue();
        assertThat(ResponseOutcome.SUCCESS_NON_2XX_3XX.non2xx3xx()).isTrue();
        assertThat(ResponseOutcome.FAILURE_NON_2XX_3XX.success()).isFalse();
        assertThat(ResponseOutcome.FAILURE_NON_2XX_3XX.non2xx3xx()).isTrue();

        assertThat(ResponseOutcome.ofHttp(true, 199))
                .isEqualTo(ResponseOutcome.SUCCESS_NON_2XX_3XX);
        assertThat(ResponseOutcome.ofHttp(true, 200)).isEqualTo(ResponseOutcome.SUCCESS);
        assertThat(ResponseOutcome.ofHttp(false, 399)).isEqualTo(ResponseOutcome.FAILURE);
        assertThat(ResponseOutcome.ofHttp(false, 400))
                .isEqualTo(ResponseOutcome.FAILURE_NON_2XX_3XX);
    }

    @Test
    void everyConnectionGetsItsOwnDecoder() {
        ResponseSpec spec = ResponseSpec.defaults();
        ResponseCodecs codecs = ResponseCodecs.of(spec, false, true);
        ChannelHandler a = codecs.newDecoder();
        ChannelHandler b = codecs.newDecoder();
        assertThat(a).isNotSameAs(b).isInstanceOf(LengthPrefixedDecoder.class);
        assertThat(ResponseCodecs.of(spec, true, true).newDecoder())
                .isInstanceOf(HttpDecoder.class);
    }

    @Test
    void httpModeIgnoresTheRawFraming() {
        // A length field outside the head is meaningless in HTTP mode and must not stop it.
        ResponseSpec d = Corpus.httpSpec();
        ResponseSpec spec =
                new ResponseSpec(
                        4,
                        3,
                        8,
                        LengthType.BODY,
                        d.codeType(),
                        d.codeLocation(),
                        d.codeTag(),
                        0,
                        0,
                        d.codeSuccess(),
                        List.of(),
                        d.maxResponseBytes());
        assertThat(
                        DecoderHarness.run(
                                ResponseCodecs.of(spec, true, true).newDecoder(),
                                List.of(Corpus.bytes("09_http.rsp1.bin")),
                                false))
                .containsExactly(ResponseOutcome.SUCCESS);
    }
}
