package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Values carried from responses, over loopback: a sign-on's session that every later request must
 * carry, against a demo target that issues it and rejects a request without it or with another; an
 * echo check that a target answers wrongly.
 */
class CorrelationLoadTest {

    /**
     * A sign-on and a 70/20/10 mix; {@code session} is what the mix sends where the session goes,
     * {@code issuedTag} where the sign-on's response is read for it.
     */
    private static String profile(boolean keepAlive, String session, String issuedTag) {
        return String.join(
                "\n",
                "host = 127.0.0.1",
                "port = 9000",
                "keepalive = " + keepAlive,
                "[request.signon]",
                "sign_on = true",
                "req_body = <signon><term>$(TERM)</term></signon>",
                "[request.authorise]",
                "weight = 70",
                "req_body = <auth><sess>" + session + "</sess><trace>$(TRACE)</trace></auth>",
                "[request.balance]",
                "weight = 20",
                "req_body = <bal><sess>" + session + "</sess><trace>$(TRACE)</trace></bal>",
                "[request.reversal]",
                "weight = 10",
                "req_body = <rev><sess>" + session + "</sess><trace>$(TRACE)</trace></rev>",
                "[response]",
                "rsp_code_type = xml",
                "rsp_code_location_tag = <retCode>",
                "rsp_echo = TRACE, xml, body, <trace>",
                "[response.signon]",
                "rsp_extract = SESSION, xml, body, " + issuedTag,
                "[response.reversal]",
                "rsp_code_success = 000400",
                "[parameters]",
                "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                "TERM = CONNECTID, %06ld",
                "");
    }

    private static Profile parse(String text) throws Exception {
        return ProfileLoader.parse(text, Path.of("pay.ini")).profile();
    }

    /**
     * Loads {@code client} against a demo target serving {@code served}, until the target has
     * answered {@code enough} requests (at most 10 s: a loaded machine starts slowly).
     */
    private static RunSummary load(Profile served, Profile client, boolean keepAlive, long enough)
            throws Exception {
        try (DemoServer target = DemoServer.start(served, ServeOptions.defaults())) {
            Profile local = client.withTarget(new Target("127.0.0.1", target.port()));
            return EngineRun.run(
                    local,
                    EngineRun.config(2, 4, 10_000, 10_000, keepAlive),
                    () -> target.requestsServed() >= enough);
        }
    }

    private static Map<String, RequestStats> rows(RunSummary summary) {
        return summary.byRequest().stream()
                .collect(Collectors.toMap(RequestStats::name, row -> row));
    }

    @Test
    void theSessionOfEachConnectionsSignOnIsCarriedWithoutAFailure() throws Exception {
        Profile profile = parse(profile(true, "$(SESSION)", "<session>"));

        RunSummary summary = load(profile, profile, true, 1_000);

        assertThat(summary.errorMessages()).isEmpty();
        assertThat(summary.counts().requests()).isGreaterThan(100);
        assertThat(summary.counts().failures()).isZero();
        Map<String, RequestStats> rows = rows(summary);
        // One sign-on per connection, on its own row, outside the totals.
        assertThat(rows.get("signon").requests()).isEqualTo(4);
        assertThat(rows.get("signon").failures()).isZero();
        long mix =
                rows.get("authorise").requests()
                        + rows.get("balance").requests()
                        + rows.get("reversal").requests();
        assertThat(mix).isEqualTo(summary.counts().requests());
        Histogram added = Histograms.create();
        for (String name : new String[] {"authorise", "balance", "reversal"}) {
            added.add(rows.get(name).latencyUs());
        }
        assertThat(added).isEqualTo(summary.latencyUs());
    }

    @Test
    void withShortConnectionsEachRequestSignsOnFirst() throws Exception {
        Profile profile = parse(profile(false, "$(SESSION)", "<session>"));

        RunSummary summary = load(profile, profile, false, 400);

        assertThat(summary.errorMessages()).isEmpty();
        assertThat(summary.counts().failures()).isZero();
        assertThat(summary.counts().requests()).isPositive();
        // Every mix request had its sign-on; at the end a sign-on may have been left without one.
        assertThat(rows(summary).get("signon").requests())
                .isBetween(summary.counts().requests(), summary.counts().requests() + 4);
    }

    @Test
    void aWrongSessionIsRejectedByTheTarget() throws Exception {
        Profile served = parse(profile(true, "$(SESSION)", "<session>"));
        Profile client = parse(profile(true, "X$(SESSION)", "<session>"));

        RunSummary summary = load(served, client, true, 200);

        assertThat(summary.counts().requests()).isPositive();
        assertThat(summary.counts().successes()).isZero();
        assertThat(rows(summary).get("signon").failures()).isZero();
    }

    @Test
    void aSessionNotFoundIsNeverSentEmptyOrStale() throws Exception {
        Profile served = parse(profile(true, "$(SESSION)", "<session>"));
        Profile client = parse(profile(true, "$(SESSION)", "<nosuch>"));

        RunSummary summary;
        long served_;
        try (DemoServer target = DemoServer.start(served, ServeOptions.defaults())) {
            Profile local = client.withTarget(new Target("127.0.0.1", target.port()));
            summary =
                    EngineRun.run(
                            local,
                            EngineRun.config(1, 2, 10_000, 10_000, true),
                            () -> target.requestsServed() >= 20);
            served_ = target.requestsServed();
        }

        Map<String, Long> errors =
                summary.errorMessages().stream()
                        .collect(Collectors.toMap(ErrorCount::message, ErrorCount::count));
        long signOns = rows(summary).get("signon").requests();
        assertThat(signOns).isPositive();
        assertThat(errors)
                .containsEntry("extract SESSION: no <nosuch> in the body", signOns)
                .containsEntry("missing value SESSION", summary.counts().failures());
        assertThat(summary.counts().successes()).isZero();
        assertThat(summary.counts().failures()).isPositive();
        // The target answered the sign-ons alone: no request went out without its session.
        assertThat(served_).isEqualTo(signOns);
    }

    @Test
    void aWrongEchoIsAFailureCountedWithItsName() throws Exception {
        String body = "<root><retCode>000000</retCode><trace>BAD</trace></root>";
        byte[] wrong =
                (String.format("%08d", body.length()) + body).getBytes(StandardCharsets.US_ASCII);
        try (ScriptedServer target =
                new ScriptedServer(
                        (index, in, out) -> {
                            while (true) {
                                byte[] head = in.readNBytes(8);
                                if (head.length < 8) {
                                    return;
                                }
                                in.readNBytes(
                                        Integer.parseInt(
                                                new String(head, StandardCharsets.US_ASCII)));
                                out.write(wrong);
                                out.flush();
                            }
                        })) {
            Profile profile =
                    parse(
                            String.join(
                                    "\n",
                                    "host = 127.0.0.1",
                                    "port = " + target.port(),
                                    "keepalive = true",
                                    "[request]",
                                    "req_body = <pay><trace>$(TRACE)</trace></pay>",
                                    "[response]",
                                    "rsp_code_type = xml",
                                    "rsp_code_location_tag = <retCode>",
                                    "rsp_echo = TRACE, xml, body, <trace>",
                                    "[parameters]",
                                    "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                                    ""));

            RunSummary summary =
                    EngineRun.run(profile, EngineRun.config(1, 2, 1_000, 10_000, true));

            assertThat(target.failures()).isEmpty();
            assertThat(summary.counts().requests()).isPositive();
            assertThat(summary.counts().failures()).isEqualTo(summary.counts().requests());
            assertThat(summary.errorMessages())
                    .containsExactly(
                            new ErrorCount(
                                    "echo TRACE: the response carries another value than was sent",
                                    summary.counts().failures()));
        }
    }

    @Test
    void aValueFromOneRequestOfTheMixIsCarriedByAnotherOnItsConnection() throws Exception {
        // No sign-on: the authorisation's approval code is what its reversal must carry.
        Profile profile =
                parse(
                        String.join(
                                "\n",
                                "host = 127.0.0.1",
                                "port = 9000",
                                "keepalive = true",
                                "[request.authorise]",
                                "weight = 70",
                                "req_body = <auth><trace>$(TRACE)</trace></auth>",
                                "[request.balance]",
                                "weight = 20",
                                "req_body = <bal><trace>$(TRACE)</trace></bal>",
                                "[request.reversal]",
                                "weight = 10",
                                "req_body = <rev><code>$(APPROVAL)</code></rev>",
                                "[response]",
                                "rsp_code_type = xml",
                                "rsp_code_location_tag = <retCode>",
                                "[response.authorise]",
                                "rsp_extract = APPROVAL, xml, body, <approval>",
                                "[parameters]",
                                "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                                ""));

        RunSummary summary = load(profile, profile, true, 1_000);

        Map<String, RequestStats> rows = rows(summary);
        assertThat(rows.get("reversal").successes()).isPositive();
        // At most each connection's first reversal, before any authorisation, lacks its value.
        long missing =
                summary.errorMessages().stream()
                        .filter(e -> e.message().equals("missing value APPROVAL"))
                        .mapToLong(ErrorCount::count)
                        .sum();
        assertThat(missing).isLessThanOrEqualTo(4);
        assertThat(summary.counts().failures()).isEqualTo(missing);
        assertThat(rows.get("reversal").failures()).isEqualTo(missing);
        assertThat(summary.errorMessages())
                .allSatisfy(e -> assertThat(e.message()).isEqualTo("missing value APPROVAL"));
    }

    @Test
    void inRateModeTheSignOnIsOutsideTheSchedule() throws Exception {
        Profile profile = parse(profile(true, "$(SESSION)", "<session>"));
        LoadConfig paced =
                new LoadConfig(
                        1,
                        4,
                        1_500,
                        10_000,
                        true,
                        1,
                        0,
                        1,
                        io.tcpload.runner.rate.RateSchedule.constant(400, 1_500),
                        false,
                        0);

        RunSummary summary;
        try (DemoServer target = DemoServer.start(profile, ServeOptions.defaults())) {
            summary =
                    EngineRun.run(
                            profile.withTarget(new Target("127.0.0.1", target.port())), paced);
        }

        assertThat(summary.errorMessages()).isEmpty();
        assertThat(summary.counts().failures()).isZero();
        assertThat(rows(summary).get("signon").requests()).isEqualTo(4);
        // The schedule's sends are the mix's requests alone: the sign-ons took none of them. The
        // last send of each connection may still be in flight as the run ends, uncounted.
        assertThat(summary.rate().sent()).isLessThanOrEqualTo(summary.rate().planned());
        assertThat(summary.counts().requests())
                .isBetween(summary.rate().sent() - 4, summary.rate().sent());
    }

    @Test
    void overHttpAValueIsTakenFromAHeaderAndEchoedFromTheBody() throws Exception {
        try (ScriptedServer target =
                new ScriptedServer(
                        (index, in, out) -> {
                            int served = 0;
                            while (true) {
                                io.tcpload.runner.testing.HttpRequests.Request request =
                                        io.tcpload.runner.testing.HttpRequests.read(in);
                                if (request == null) {
                                    return;
                                }
                                String trace =
                                        request.body()
                                                .replaceAll(".*\"trace\":\"([0-9]+)\".*", "$1");
                                String session = request.header("X-Session");
                                boolean first = served++ == 0;
                                boolean carries = ("K" + index).equals(session);
                                String answer =
                                        "{\"retCode\":\""
                                                + (first || carries ? "000000" : "999999")
                                                + "\",\"trace\":\""
                                                + trace
                                                + "\"}";
                                out.write(
                                        ("HTTP/1.1 200 OK\r\nX-Issued: K"
                                                        + index
                                                        + "\r\nContent-Length: "
                                                        + answer.length()
                                                        + "\r\n\r\n"
                                                        + answer)
                                                .getBytes(StandardCharsets.US_ASCII));
                                out.flush();
                            }
                        })) {
            Profile profile =
                    parse(
                            String.join(
                                    "\n",
                                    "host = 127.0.0.1",
                                    "port = " + target.port(),
                                    "http_line = POST /pay HTTP/1.1",
                                    "keepalive = true",
                                    "[request.signon]",
                                    "sign_on = true",
                                    "req_body = {\"op\":\"signon\",\"trace\":\"$(TRACE)\"}",
                                    "[request.pay]",
                                    "req_head = X-Session: $(SESSION)",
                                    "req_body = {\"op\":\"pay\",\"trace\":\"$(TRACE)\"}",
                                    "[response]",
                                    "rsp_code_type = json",
                                    "rsp_code_location_tag = \"retCode\"",
                                    "rsp_echo = TRACE, json, body, \"trace\"",
                                    "[response.signon]",
                                    "rsp_extract = SESSION, regex, head, X-Issued: ([A-Z0-9]+)",
                                    "[parameters]",
                                    "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                                    ""));

            RunSummary summary = EngineRun.run(profile, EngineRun.config(1, 2, 800, 10_000, true));

            assertThat(target.failures()).isEmpty();
            assertThat(summary.errorMessages()).isEmpty();
            assertThat(summary.counts().requests()).isPositive();
            assertThat(summary.counts().failures()).isZero();
            assertThat(rows(summary).get("signon").requests()).isEqualTo(2);
        }
    }

    @Test
    void aSignOnNeedingAValueNotFoundIsNotSentAndTheConnectionSignsOnAgain() throws Exception {
        String twoSignOns =
                String.join(
                        "\n",
                        "host = 127.0.0.1",
                        "port = 9000",
                        "keepalive = true",
                        "[request.hello]",
                        "sign_on = true",
                        "req_body = <hello/>",
                        "[request.login]",
                        "sign_on = true",
                        "req_body = <login><sess>$(SESSION)</sess></login>",
                        "[request.pay]",
                        "req_body = <pay><sess>$(SESSION)</sess></pay>",
                        "[response]",
                        "rsp_code_type = xml",
                        "rsp_code_location_tag = <retCode>",
                        "[response.hello]",
                        "rsp_extract = SESSION, xml, body, TAG",
                        "");
        Profile served = parse(twoSignOns.replace("TAG", "<session>"));
        Profile client = parse(twoSignOns.replace("TAG", "<nosuch>"));

        RunSummary summary;
        long answered;
        try (DemoServer target = DemoServer.start(served, ServeOptions.defaults())) {
            summary =
                    EngineRun.run(
                            client.withTarget(new Target("127.0.0.1", target.port())),
                            EngineRun.config(1, 1, 10_000, 10_000, true),
                            () -> target.requestsServed() >= 5);
            answered = target.requestsServed();
        }

        Map<String, RequestStats> rows = rows(summary);
        assertThat(rows.get("hello").requests()).isGreaterThanOrEqualTo(5);
        assertThat(rows.get("login").failures()).isEqualTo(rows.get("login").requests());
        assertThat(rows.get("login").requests()).isPositive();
        assertThat(rows.get("pay").successes()).isZero();
        // Only the first sign-on ever reached the target: a login sent each time round would
        // double what it answered. A hello still in flight when the run stops is answered but not
        // counted, so the target may have answered one more than the run counts.
        long hellos = rows.get("hello").requests();
        assertThat(answered).isBetween(hellos, hellos + 1);
    }
}
