package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.report.DryRunResult.Exchange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DryRunResultTest {
    private static Exchange exchange(String name, int requestBytes, int responseBytes) {
        return new Exchange(
                name,
                "success",
                requestBytes,
                "ab".repeat(requestBytes),
                responseBytes,
                "cd".repeat(responseBytes),
                "head 8 bytes, length field (bytes 1-8) \"00000010\" = 10, body 10 bytes",
                "000000",
                null,
                List.of());
    }

    @Test
    void aSmallResultIsWrittenWholeAndReadBack() {
        DryRunResult result =
                new DryRunResult(
                        "127.0.0.1:9000",
                        2,
                        1,
                        List.of("PIN (ENV)"),
                        List.of(
                                exchange("pay", 20, 14),
                                new Exchange(
                                        "ask",
                                        "failure",
                                        12,
                                        "00".repeat(12),
                                        0,
                                        "",
                                        null,
                                        null,
                                        "timeout, no full response within 300 ms",
                                        List.of())),
                        0);

        String json = result.toJson(DryRunResult.TERMINATION_MESSAGE_BYTES);

        assertThat(json).isEqualTo(result.toJson());
        assertThat(DryRunResult.read(json)).isEqualTo(result);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aLargeResultIsCutToTheBoundBytesFirstEveryExchangeAlike() {
        List<Exchange> exchanges = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            exchanges.add(exchange("request-" + i, 1_000, 2_000));
        }
        DryRunResult result = new DryRunResult("127.0.0.1:9000", 5, 5, List.of(), exchanges, 0);

        String json = result.toJson(DryRunResult.TERMINATION_MESSAGE_BYTES);

        assertThat(json.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(DryRunResult.TERMINATION_MESSAGE_BYTES)
                .isGreaterThan(DryRunResult.TERMINATION_MESSAGE_BYTES - 100);
        DryRunResult read = DryRunResult.read(json);
        assertThat(read.exchanges()).hasSize(5);
        assertThat(read.omitted()).isZero();
        for (Exchange exchange : read.exchanges()) {
            assertThat(exchange.whole()).isFalse();
            assertThat(exchange.requestBytes()).isEqualTo(1_000);
            assertThat(exchange.request().length() % 2).isZero();
            assertThat(exchange.request()).isEqualTo(read.exchanges().get(0).request());
            assertThat(exchange.code()).isEqualTo("000000");
        }
    }

    @Test
    void exchangesThatCannotFitEvenWithoutBytesAreLeftOutFromTheEnd() {
        List<Exchange> exchanges = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            exchanges.add(exchange("request-number-" + i, 100, 100));
        }
        DryRunResult result = new DryRunResult("127.0.0.1:9000", 32, 32, List.of(), exchanges, 0);

        DryRunResult read =
                DryRunResult.read(result.toJson(DryRunResult.TERMINATION_MESSAGE_BYTES));

        assertThat(read.exchanges()).hasSizeLessThan(32).isNotEmpty();
        assertThat(read.exchanges().size() + read.omitted()).isEqualTo(32);
        assertThat(read.exchanges().get(0).name()).isEqualTo("request-number-0");
    }

    @Test
    void valuesExtractedAreWrittenReadBackAndCutAsTheBytesAre() {
        Exchange signOn =
                new Exchange(
                        "signon",
                        "success",
                        10,
                        "ab".repeat(10),
                        30,
                        "cd".repeat(30),
                        null,
                        "000000",
                        null,
                        List.of(
                                new DryRunResult.Value("SESSION", 9, "**".repeat(9)),
                                new DryRunResult.Value("KEY", 3, "414243")));
        DryRunResult small =
                new DryRunResult("127.0.0.1:9000", 1, 1, List.of(), List.of(signOn), 0);

        String json = small.toJson(DryRunResult.TERMINATION_MESSAGE_BYTES);

        assertThat(json)
                .contains(
                        "\"extracted\":[{\"name\":\"SESSION\",\"bytes\":9,\"value\":\""
                                + "**".repeat(9)
                                + "\"}");
        assertThat(DryRunResult.read(json)).isEqualTo(small);
        assertThat(signOn.whole()).isTrue();

        List<Exchange> many = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            many.add(
                    new Exchange(
                            "signon-" + i,
                            "success",
                            10,
                            "ab".repeat(10),
                            10,
                            "cd".repeat(10),
                            null,
                            null,
                            null,
                            List.of(new DryRunResult.Value("SESSION", 2_000, "ef".repeat(2_000)))));
        }
        DryRunResult read =
                DryRunResult.read(
                        new DryRunResult("127.0.0.1:9000", 4, 4, List.of(), many, 0)
                                .toJson(DryRunResult.TERMINATION_MESSAGE_BYTES));

        assertThat(read.exchanges()).hasSize(4);
        for (Exchange exchange : read.exchanges()) {
            assertThat(exchange.whole()).isFalse();
            assertThat(exchange.request()).isEqualTo("ab".repeat(10));
            assertThat(exchange.extracted().get(0).bytes()).isEqualTo(2_000);
            assertThat(exchange.extracted().get(0).value().length()).isLessThan(4_000).isPositive();
        }
    }

    @Test
    void maskedBytesAreStarsInTheHex() {
        byte[] data = "pin=1234;".getBytes(StandardCharsets.US_ASCII);
        boolean[] masked = new boolean[data.length];
        for (int i = 4; i < 8; i++) {
            masked[i] = true;
        }

        assertThat(DryRunResult.hex(data, masked)).isEqualTo("70696e3d********3b");
    }

    @Test
    void whatIsNotADryRunsResultIsRefusedWithASentence() {
        assertThatThrownBy(() -> DryRunResult.read("{\"format\":\"tcpload-result/v1\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tcpload-dryrun/v1");
        assertThatThrownBy(() -> DryRunResult.read("Error: exit code 2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not JSON");
    }
}
