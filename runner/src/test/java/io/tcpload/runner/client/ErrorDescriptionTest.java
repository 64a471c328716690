package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Error messages are aggregated by their text: the same failure must read the same on every
 * transport, without syscall names, error numbers or addresses.
 */
class ErrorDescriptionTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "connect(..) failed: Connection refused|connection refused",
                "io_uring connect(..) failed with error(-111): Connection refused|connection refused",
                "Connection refused: /127.0.0.1:4242|connection refused",
                "readAddress(..) failed: Connection reset by peer|connection reset by peer",
                "io_uring read(..) failed with error(-104): Connection reset by peer"
                        + "|connection reset by peer",
                "Connection reset|connection reset",
            })
    void transportDetailsAreLeftOut(String message, String described) {
        assertThat(ConnectionSlot.describe(new ConnectException(message))).isEqualTo(described);
        assertThat(ConnectionSlot.describe(new IOException(message))).isEqualTo(described);
    }
}
