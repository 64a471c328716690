package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A dry run's printout text, without a socket: hex lines, masked bytes, quoting. */
class DryRunTextTest {
    @Test
    void bytesAreSixteenALineWithTheirOffsetHexAndText() {
        byte[] data = "00000013<req>ok</req>\n".getBytes(StandardCharsets.US_ASCII);

        assertThat(DryRunText.hexLines(data))
                .containsExactly(
                        "    0000  30 30 30 30 30 30 31 33 3c 72 65 71 3e 6f 6b 3c "
                                + " |00000013<req>ok<|",
                        "    0010  2f 72 65 71 3e 0a                               " + " |/req>.|");
    }

    @Test
    void maskedBytesAreStarsInTheHexAndInTheText() {
        byte[] data = "pin=1234;".getBytes(StandardCharsets.US_ASCII);
        boolean[] masked = new boolean[data.length];
        for (int i = 4; i < 8; i++) {
            masked[i] = true;
        }

        assertThat(DryRunText.hexLines(data, masked))
                .containsExactly(
                        "    0000  70 69 6e 3d ** ** ** ** 3b                      "
                                + " |pin=****;|");
    }

    @Test
    void quotedBytesEscapeWhatIsNotPrintable() {
        assertThat(DryRunText.quoted(new byte[] {'a', '"', '\\', 0x01, (byte) 0xC8}))
                .isEqualTo("\"a\\\"\\\\\\x01\\xC8\"");
        assertThat(DryRunText.bytes(1)).isEqualTo("1 byte");
        assertThat(DryRunText.bytes(2)).isEqualTo("2 bytes");
    }
}
