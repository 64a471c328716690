package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeadResponsesTest {
    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(ByteBuf buf) {
        return buf.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void onlyTheHeadMethodAsWrittenIsHead() {
        assertThat(HeadResponses.isHead(ascii("HEAD / HTTP/1.1\r\n\r\n"))).isTrue();
        assertThat(HeadResponses.isHead(ascii("GET / HTTP/1.1\r\n\r\n"))).isFalse();
        assertThat(HeadResponses.isHead(ascii("head / HTTP/1.1\r\n\r\n"))).isFalse();
        assertThat(HeadResponses.isHead(ascii("HEADER"))).isFalse();
        assertThat(HeadResponses.isHead(ascii("HEAD"))).isFalse();
    }

    @Test
    void theBodyIsCutAfterTheBlankLine() {
        ByteBuf response =
                Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
        assertThat(text(HeadResponses.dropBody(response)))
                .isEqualTo("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n");
        // Only the view is cut: a retained duplicate of a shared response leaves it whole.
        ByteBuf shared = Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\n\r\nok"));
        assertThat(text(HeadResponses.dropBody(shared.duplicate())))
                .isEqualTo("HTTP/1.1 200 OK\r\n\r\n");
        assertThat(text(shared)).isEqualTo("HTTP/1.1 200 OK\r\n\r\nok");
        ByteBuf noBlankLine = Unpooled.wrappedBuffer(ascii("HTTP/1.1 200 OK\r\n"));
        assertThat(text(HeadResponses.dropBody(noBlankLine))).isEqualTo("HTTP/1.1 200 OK\r\n");
    }
}
