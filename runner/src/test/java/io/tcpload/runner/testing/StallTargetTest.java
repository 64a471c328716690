package io.tcpload.runner.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class StallTargetTest {
    private static final byte[] REQUEST =
            "00000014this is a test".getBytes(StandardCharsets.US_ASCII);

    @Test
    void releaseTimesHoldResponsesInsideAStallUntilItsEnd() {
        StallPattern pattern = new StallPattern(1000, 200);

        assertThat(pattern.releaseAtNs(0)).isEqualTo(200_000_000L);
        assertThat(pattern.releaseAtNs(199_999_999L)).isEqualTo(200_000_000L);
        assertThat(pattern.releaseAtNs(200_000_000L)).isEqualTo(200_000_000L);
        assertThat(pattern.releaseAtNs(999_999_999L)).isEqualTo(999_999_999L);
        assertThat(pattern.releaseAtNs(1_000_000_000L)).isEqualTo(1_200_000_000L);
        assertThat(pattern.releaseAtNs(3_150_000_000L)).isEqualTo(3_200_000_000L);
    }

    @Test
    void theTruthIsTheUniformWaitOfTheStalledShare() {
        StallPattern pattern = new StallPattern(1000, 200);

        assertThat(pattern.waitQuantileMs(0.5)).isZero();
        assertThat(pattern.waitQuantileMs(0.8)).isCloseTo(0, within(1e-9));
        assertThat(pattern.waitQuantileMs(0.9)).isCloseTo(100, within(1e-9));
        assertThat(pattern.waitQuantileMs(0.99)).isCloseTo(190, within(1e-9));
        assertThat(pattern.waitQuantileMs(1.0)).isEqualTo(200);
        assertThat(pattern.meanWaitMs()).isEqualTo(20.0);
        assertThatThrownBy(() -> new StallPattern(100, 100))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Timeout(20)
    void aResponseInsideAStallComesAfterItsEndAndOneOutsideComesAtOnce() throws Exception {
        StallPattern pattern = new StallPattern(2000, 500);
        try (StallTarget target = new StallTarget(pattern);
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), target.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            long firstSentNs = elapsed(target);
            // The first stall is [0, 500 ms): only a machine frozen for half a second misses it.
            assumeTrue(firstSentNs < 400_000_000L, "the request was not sent inside the stall");
            out.write(REQUEST);
            out.flush();
            assertThat(in.readNBytes(StallTarget.RESPONSE.length)).isEqualTo(StallTarget.RESPONSE);
            long firstAnsweredNs = elapsed(target);
            assertThat(firstAnsweredNs).isGreaterThanOrEqualTo(500_000_000L);

            // Same connection (keep-alive), now between stalls: answered long before the next one.
            long secondSentNs = elapsed(target);
            out.write(REQUEST);
            out.flush();
            assertThat(in.readNBytes(StallTarget.RESPONSE.length)).isEqualTo(StallTarget.RESPONSE);
            long secondAnsweredNs = elapsed(target);
            assertThat(secondAnsweredNs)
                    .isGreaterThanOrEqualTo(pattern.releaseAtNs(secondSentNs))
                    .isLessThan(2_000_000_000L);
            assertThat(target.accepted()).isEqualTo(1);
            assertThat(target.failures()).isEmpty();
        }
    }

    private static long elapsed(StallTarget target) {
        return System.nanoTime() - target.startNanos();
    }
}
