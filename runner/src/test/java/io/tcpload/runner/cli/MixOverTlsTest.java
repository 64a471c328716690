package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction mix over TLS, against the demo target serving TLS on loopback: the handshakes and
 * the per-request rows are both in the result, and the rows still add up to the totals.
 */
class MixOverTlsTest {

    @Test
    void aMixOverTlsCountsItsHandshakesAndEachRequest(@TempDir Path dir) throws Exception {
        Path profile = dir.resolve("mix-tls.ini");
        Files.writeString(
                profile,
                """
                [common]
                host = 127.0.0.1
                port = 1
                keepalive = true
                tls = true

                [request.authorise]
                weight = 3
                req_body = authorise

                [request.balance]
                weight = 1
                req_body = balance
                """);
        Path json = dir.resolve("result.json");

        CliResult result =
                CliResult.run(
                        "--demo-target",
                        "-c2",
                        "-t1",
                        "-d1s",
                        "--json",
                        json.toString(),
                        profile.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).contains("TLS, a certificate made at start");
        assertThat(result.out()).contains("Handshake").contains("By request");
        RunSummary summary = JsonResult.read(Files.readString(json));
        assertThat(summary.counts().tlsErrors()).isZero();
        assertThat(summary.counts().errors()).isZero();
        // Keep-alive: one handshake per connection, unless the demo target closed one.
        assertThat(summary.handshakeUs().getTotalCount()).isGreaterThanOrEqualTo(2);
        assertThat(summary.byRequest())
                .extracting(RequestStats::name)
                .containsExactly("authorise", "balance");
        long total = summary.counts().requests();
        assertThat(total).isPositive();
        assertThat(summary.byRequest().stream().mapToLong(RequestStats::requests).sum())
                .isEqualTo(total);
        assertThat(summary.byRequest().stream().mapToLong(RequestStats::successes).sum())
                .isEqualTo(summary.counts().successes());
        // Each of the two connections keeps within one request of the 3:1 share.
        long authorise = summary.byRequest().get(0).requests();
        assertThat(Math.abs(authorise - 0.75 * total)).isLessThanOrEqualTo(2.0);
    }
}
