package io.tcpload.runner.dryrun;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseInspector;
import io.tcpload.runner.codec.ResponseInspector.Inspection;
import io.tcpload.runner.correlate.Variables;
import io.tcpload.runner.dryrun.DryRunWire.Connection;
import io.tcpload.runner.dryrun.DryRunWire.Received;
import io.tcpload.runner.dryrun.Printout.Judged;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.DryRunResult.Exchange;
import io.tcpload.runner.report.DryRunText;
import io.tcpload.runner.template.RequestBuildException;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.tls.ClientTls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A dry run's exchange: each request of a compiled profile once, in order (the sign-ons first, and
 * without keep-alive again before each request, as the load would), on one connection (a fresh one
 * per request without keep-alive), each printed with its bytes and its response as read and judged,
 * and gathered as a {@link DryRunResult}. The caller has checked and compiled the profile.
 */
public final class ExchangeLoop {
    private final Printout printout;
    private final int timeoutMs;
    private final boolean keepAlive;
    private final ClientTls tls;

    /**
     * @param out where the exchange is printed
     * @param mask what it hides
     * @param timeoutMs the bound of each connect and each response
     * @param keepAlive one connection for every request, else one per request
     * @param tls the load's TLS context, or null for plain TCP
     */
    public ExchangeLoop(
            PrintStream out, DryRunMask mask, int timeoutMs, boolean keepAlive, ClientTls tls) {
        this.printout = new Printout(out, mask);
        this.timeoutMs = timeoutMs;
        this.keepAlive = keepAlive;
        this.tls = tls;
    }

    /**
     * Sends each request of {@code requests} (compiled from {@code profile}) to {@code address}.
     */
    public DryRunResult run(
            Profile profile, RequestMix requests, long connectionId, InetSocketAddress address) {
        List<Integer> steps = steps(requests, keepAlive);
        int count = steps.size();
        Variables variables =
                requests.variables().isEmpty() ? null : new Variables(requests.variables());
        printout.line(
                "Dry run @ "
                        + profile.target()
                        + " using "
                        + profile.displayName()
                        + ": "
                        + count
                        + (count == 1 ? " request" : " requests")
                        + ", "
                        + (keepAlive ? "one connection" : "one connection per request")
                        + (tls == null ? "" : ", TLS by " + tls.providerName())
                        + ", CONNECTID "
                        + connectionId);
        if (!printout.mask().what().isEmpty()) {
            printout.line(
                    "Masked (** in hex, * in text): " + String.join(", ", printout.mask().what()));
        }
        int successes = 0;
        List<Exchange> exchanges = new ArrayList<>();
        boolean http = profile.request().http();
        Connection connection = null;
        try {
            for (int step = 0; step < count; step++) {
                int i = steps.get(step);
                String name = requests.isMix() ? requests.names().get(i) : "request";
                ResponseSpec judged =
                        requests.isMix() ? profile.mix().get(i).response() : profile.response();
                printout.blank();
                printout.line(
                        "["
                                + (step + 1)
                                + "/"
                                + count
                                + "] "
                                + name
                                + (requests.isSignOn(i) ? " (sign-on)" : ""));
                if (connection == null && variables != null) {
                    variables.clear(); // values live as long as their connection
                }
                byte[] request;
                byte[][] sent;
                try {
                    ByteBuf buffer = Unpooled.buffer(requests.template(i).sizeHint());
                    try {
                        sent = requests.template(i).writeRequest(buffer, connectionId, variables);
                        request = new byte[buffer.readableBytes()];
                        buffer.readBytes(request);
                    } finally {
                        buffer.release();
                    }
                } catch (RequestBuildException e) {
                    printout.line("  not sent: " + e.getMessage());
                    printout.line("  verdict: failure");
                    exchanges.add(notSent(name, "not sent: " + e.getMessage()));
                    continue;
                }
                printout.line("  request, " + DryRunText.bytes(request.length) + ":");
                printout.dump(request);
                Received received = null;
                String error = null;
                Judged judgedAs = null;
                try {
                    if (connection == null) {
                        connection = DryRunWire.connect(address, timeoutMs, tls, printout);
                    }
                    connection.send(request);
                    ResponseInspector inspector =
                            new ResponseInspector(
                                    profile.response(), judged, http, profile.request().head());
                    received = DryRunWire.read(connection, inspector, timeoutMs);
                    // The code and any values carried (an echo, an extract) judge it.
                    judgedAs = printout.response(received, http, judged, sent, variables);
                    if (judgedAs.success()) {
                        successes++;
                    }
                } catch (SocketTimeoutException e) {
                    error = "timeout, no full response within " + timeoutMs + " ms";
                    connection = failed(error, connection);
                } catch (IOException | ResponseFramingException e) {
                    error = e.getMessage();
                    connection = failed(error, connection);
                }
                exchanges.add(exchange(name, request, received, error, http, judged, judgedAs));
                if (!keepAlive && !requests.isSignOn(i)) {
                    connection = DryRunWire.close(connection);
                }
            }
        } finally {
            DryRunWire.close(connection);
        }
        printout.blank();
        printout.line(
                "Dry run: "
                        + successes
                        + " of "
                        + count
                        + (count == 1 ? " response" : " responses")
                        + " a success");
        return new DryRunResult(
                address.getAddress().getHostAddress() + ":" + address.getPort(),
                count,
                successes,
                printout.mask().what(),
                exchanges,
                0);
    }

    /** Prints why the request got no judged response; the connection, closed. */
    private Connection failed(String error, Connection connection) {
        printout.line("  error: " + error);
        printout.line("  verdict: failure");
        return DryRunWire.close(connection);
    }

    private static Exchange notSent(String name, String error) {
        return new Exchange(name, "failure", 0, "", 0, "", null, null, error, List.of());
    }

    /** One exchange as the JSON shows it: bytes as hex, masked as printed. */
    private Exchange exchange(
            String name,
            byte[] request,
            Received received,
            String error,
            boolean http,
            ResponseSpec judged,
            Judged judgedAs) {
        DryRunMask mask = printout.mask();
        String requestHex = DryRunResult.hex(request, mask.over(request));
        if (received == null) {
            return new Exchange(
                    name,
                    "failure",
                    request.length,
                    requestHex,
                    0,
                    "",
                    null,
                    null,
                    error,
                    List.of());
        }
        Inspection inspection = received.inspection();
        byte[] response = received.bytes();
        return new Exchange(
                name,
                judgedAs.success() ? "success" : "failure",
                request.length,
                requestHex,
                response.length,
                DryRunResult.hex(response, mask.over(response)),
                DryRunText.framing(inspection, http, judged),
                inspection.code() == null
                        ? null
                        : new String(inspection.code(), StandardCharsets.ISO_8859_1),
                null,
                judgedAs.extracted().stream()
                        .map(
                                value ->
                                        new DryRunResult.Value(
                                                value.name(),
                                                value.bytes().length,
                                                DryRunResult.hex(
                                                        value.bytes(), mask.over(value.bytes()))))
                        .toList());
    }

    /**
     * The requests in the order the dry run sends them: the sign-ons first, then the others in file
     * order; without keep-alive the sign-ons again before each of those, on its own connection, as
     * the load would.
     */
    static List<Integer> steps(RequestMix requests, boolean keepAlive) {
        List<Integer> steps = new ArrayList<>();
        boolean first = true;
        for (int i = 0; i < requests.size(); i++) {
            if (requests.isSignOn(i)) {
                continue;
            }
            if (first || !keepAlive) {
                for (int signOn : requests.signOns()) {
                    steps.add(signOn);
                }
            }
            steps.add(i);
            first = false;
        }
        return steps;
    }
}
