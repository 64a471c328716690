package io.tcpload.runner.cli;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseInspector;
import io.tcpload.runner.codec.ResponseInspector.Inspection;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.correlate.Variables;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.DryRunResult.Exchange;
import io.tcpload.runner.session.RunSession;
import io.tcpload.runner.template.RequestBuildException;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.tls.ClientTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * wrktcp's {@code --test}, done so that a profile can be checked against its service: each request
 * of the profile once, in order, on one connection (a fresh one per request without keep-alive, as
 * the load would), each printed with its bytes (hex and text), the response's bytes, how they were
 * framed (head, length field, body), the code found and the verdict. Exit status 0 when every
 * response is a success, 1 otherwise, 2 for a profile that cannot be built. The exchange can also
 * be written as JSON ({@link DryRunResult}, for a runner pod's termination message), and values of
 * ENV parameters and secret data files masked in both ({@link DryRunMask}).
 *
 * <p>Plain blocking sockets: one connection, one request at a time, bounded by {@code --timeout}.
 * With TLS ({@code tls = true}, {@code --tls}, an {@code https://} URL) the connection shakes hands
 * with the load's own TLS context ({@link TlsStreams}), so it checks what the load would.
 */
public final class DryRun {
    private static final int BYTES_PER_LINE = 16;
    private static final int READ_CHUNK = 8192;

    private final PrintStream out;
    private final PrintStream err;
    private final Options options;
    private DryRunMask mask = DryRunMask.NONE;

    /**
     * What a dry run writes besides its printout, and what it hides.
     *
     * @param json where to write the exchange as JSON ({@link DryRunResult}, at most {@link
     *     DryRunResult#TERMINATION_MESSAGE_BYTES}), if anywhere
     * @param maskEnv mask the values of ENV parameters, printed and written
     * @param maskFiles mask the lines of the data files of these names (FILE parameters)
     * @param maskExtracted mask the values responses hand the connection ({@code rsp_extract})
     */
    public record Options(
            Optional<Path> json, boolean maskEnv, List<String> maskFiles, boolean maskExtracted) {
        public static final Options NONE = new Options(Optional.empty(), false, List.of(), false);

        public Options {
            Objects.requireNonNull(json, "json");
            maskFiles = List.copyOf(maskFiles);
        }
    }

    /**
     * How a dry run ended: its exit status (0 every response a success, 1 otherwise, 2 a profile
     * that cannot be built), and the exchange, when requests were sent.
     */
    public record Outcome(int exitStatus, Optional<DryRunResult> result) {}

    public DryRun(PrintStream out, PrintStream err) {
        this(out, err, Options.NONE);
    }

    /** A dry run printing to {@code out}, its problems to {@code err}. */
    public DryRun(PrintStream out, PrintStream err, Options options) {
        this.out = out;
        this.err = err;
        this.options = options;
    }

    /**
     * Runs the dry run of {@code loaded} as {@code plan} says (its target, timeout, keep-alive and
     * TLS flags); ENV parameters from {@code environment}; the exchange written as JSON when the
     * options say where.
     *
     * @return 0 when every response is a success, 1 when one is not, 2 for a profile that cannot be
     *     built
     */
    public int run(RunPlan plan, Profile loaded, Function<String, String> environment) {
        Outcome outcome = outcome(plan, loaded, environment);
        if (outcome.result().isPresent() && options.json().isPresent()) {
            Path json = options.json().get();
            try {
                Files.writeString(
                        json,
                        outcome.result().get().toJson(DryRunResult.TERMINATION_MESSAGE_BYTES),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println("tcpload-runner: cannot write --test-json " + json + ": " + e);
                return RunCommand.EXIT_INVALID;
            }
        }
        return outcome.exitStatus();
    }

    /**
     * Sends each request of {@code loaded} once as {@code plan} says, printing the exchange, and
     * returns how it went; nothing is written.
     */
    public Outcome outcome(RunPlan plan, Profile loaded, Function<String, String> environment) {
        Profile profile = plan.applyTo(loaded);
        RequestMix requests;
        long connectionId;
        try {
            if (plan.problemWith(profile).isPresent()) {
                err.println("tcpload-runner: " + plan.problemWith(profile).get());
                return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
            }
            requests =
                    RequestMix.compile(
                            profile,
                            new RunnerSlice(plan.runnerIndex(), plan.invocation().share().count()),
                            environment);
            connectionId = plan.loadConfig(profile).connectionId(0, 0);
        } catch (IllegalArgumentException e) {
            err.println("tcpload-runner: " + e.getMessage());
            return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
        }
        mask =
                DryRunMask.of(
                        profile,
                        environment,
                        options.maskEnv(),
                        options.maskFiles(),
                        options.maskExtracted());
        ClientTls tls;
        try {
            tls = RunSession.clientTlsFor(plan, profile, environment, err);
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println("tcpload-runner: " + problem));
            return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
        }
        try {
            return run(plan, profile, requests, connectionId, tls);
        } finally {
            if (tls != null) {
                tls.close();
            }
        }
    }

    private Outcome run(
            RunPlan plan, Profile profile, RequestMix requests, long connectionId, ClientTls tls) {
        InetSocketAddress address;
        try {
            address =
                    new InetSocketAddress(
                            InetAddress.getByName(profile.target().host()),
                            profile.target().port());
        } catch (UnknownHostException e) {
            err.println("tcpload-runner: cannot resolve host '" + profile.target().host() + "'");
            return new Outcome(RunCommand.EXIT_FAILED, Optional.empty());
        }
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, plan.invocation().load().timeoutMs());
        boolean keepAlive = plan.keepAlive(profile);
        List<Integer> steps = steps(requests, keepAlive);
        int count = steps.size();
        Variables variables =
                requests.variables().isEmpty() ? null : new Variables(requests.variables());
        out.println(
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
        if (!mask.what().isEmpty()) {
            out.println("Masked (** in hex, * in text): " + String.join(", ", mask.what()));
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
                out.println();
                out.println(
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
                    out.println("  not sent: " + e.getMessage());
                    out.println("  verdict: failure");
                    exchanges.add(
                            new Exchange(
                                    name,
                                    "failure",
                                    0,
                                    "",
                                    0,
                                    "",
                                    null,
                                    null,
                                    "not sent: " + e.getMessage(),
                                    List.of()));
                    continue;
                }
                out.println("  request, " + bytes(request.length) + ":");
                dump(request);
                Received received = null;
                String error = null;
                Judged judgedAs = null;
                try {
                    if (connection == null) {
                        connection = connect(address, timeoutMs, tls);
                    }
                    connection.out().write(request);
                    connection.out().flush();
                    ResponseInspector inspector =
                            new ResponseInspector(
                                    profile.response(), judged, profile.request().http());
                    received = read(connection, inspector, timeoutMs);
                    // The code and any values carried (an echo, an extract) judge it.
                    judgedAs = show(received, http, judged, sent, variables);
                    if (judgedAs.success()) {
                        successes++;
                    }
                } catch (SocketTimeoutException e) {
                    error = "timeout, no full response within " + timeoutMs + " ms";
                    out.println("  error: " + error);
                    out.println("  verdict: failure");
                    connection = close(connection);
                } catch (IOException | ResponseFramingException e) {
                    error = e.getMessage();
                    out.println("  error: " + error);
                    out.println("  verdict: failure");
                    connection = close(connection);
                }
                exchanges.add(exchange(name, request, received, error, http, judged, judgedAs));
                if (!keepAlive && !requests.isSignOn(i)) {
                    connection = close(connection);
                }
            }
        } finally {
            close(connection);
        }
        out.println();
        out.println(
                "Dry run: "
                        + successes
                        + " of "
                        + count
                        + (count == 1 ? " response" : " responses")
                        + " a success");
        DryRunResult result =
                new DryRunResult(
                        address.getAddress().getHostAddress() + ":" + address.getPort(),
                        count,
                        successes,
                        mask.what(),
                        exchanges,
                        0);
        return new Outcome(
                successes == count ? RunCommand.EXIT_OK : RunCommand.EXIT_FAILED,
                Optional.of(result));
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
                framing(inspection, http, judged),
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

    /** A value a response handed the connection. */
    private record Extracted(String name, byte[] bytes) {}

    /** How a response was judged, and the values it handed the connection. */
    private record Judged(boolean success, List<Extracted> extracted) {}

    /**
     * The requests in the order the dry run sends them: the sign-ons first, then the others in file
     * order; without keep-alive the sign-ons again before each of those, on its own connection, as
     * the load would.
     */
    private static List<Integer> steps(RequestMix requests, boolean keepAlive) {
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

    /**
     * One connection: its socket, and the streams requests and responses go through (the socket's
     * own, or with TLS the clear side of its records).
     */
    private record Connection(Socket socket, InputStream in, OutputStream out, TlsStreams tls) {}

    private Connection connect(InetSocketAddress address, int timeoutMs, ClientTls tls)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMs);
            socket.connect(address, timeoutMs);
        } catch (IOException e) {
            socket.close();
            throw new IOException("connect to " + address + ": " + e.getMessage(), e);
        }
        out.println(
                "  connected to "
                        + address.getAddress().getHostAddress()
                        + ":"
                        + address.getPort());
        if (tls == null) {
            return new Connection(socket, socket.getInputStream(), socket.getOutputStream(), null);
        }
        TlsStreams streams;
        try {
            streams = TlsStreams.open(socket, tls, address.getPort(), timeoutMs);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        out.println("  TLS handshake done: " + streams.agreed());
        return new Connection(socket, streams.in(), streams.out(), streams);
    }

    /** A response's bytes as they arrived, and how they were read. */
    private record Received(byte[] bytes, Inspection inspection) {}

    /** Reads until the inspector has a full response, the server closes, or the time is up. */
    private static Received read(Connection connection, ResponseInspector inspector, int timeoutMs)
            throws IOException {
        long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        ByteBuf received = Unpooled.buffer();
        Socket socket = connection.socket();
        try {
            InputStream in = connection.in();
            byte[] chunk = new byte[READ_CHUNK];
            while (true) {
                long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    throw new SocketTimeoutException();
                }
                socket.setSoTimeout((int) Math.max(1, leftMs));
                int n = in.read(chunk);
                if (n < 0) {
                    Inspection closed = inspector.inspectOnClose();
                    if (closed != null) {
                        return new Received(bytesOf(received), closed);
                    }
                    throw new IOException(
                            received.writerIndex() == 0
                                    ? "connection closed before any byte of the response"
                                    : "connection closed before a full response ("
                                            + bytes(received.writerIndex())
                                            + " received)");
                }
                received.writeBytes(chunk, 0, n);
                Inspection inspection = inspector.inspect(received);
                if (inspection != null) {
                    if (received.isReadable()) {
                        throw new IOException(
                                bytes(received.readableBytes()) + " after a complete response");
                    }
                    return new Received(bytesOf(received), inspection);
                }
            }
        } finally {
            received.release();
        }
    }

    /** Every byte the buffer received, read or not. */
    private static byte[] bytesOf(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.writerIndex()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /**
     * Prints the response, how it was read and judged; whether it is a success and the values it
     * handed the connection. Those are masked (when asked) in the response that carries them too.
     */
    private Judged show(
            Received received,
            boolean http,
            ResponseSpec judged,
            byte[][] sent,
            Variables variables) {
        Inspection inspection = received.inspection();
        ResponseValues rule = ResponseValues.of(judged, variablesOf(variables));
        ResponseValues.Checked checked = rule == null ? null : check(rule, inspection);
        List<Extracted> extracted = new ArrayList<>();
        for (int i = 0; checked != null && i < judged.extracts().size(); i++) {
            byte[] value = checked.extracted()[i];
            if (value != null) {
                // Masked even when not taken (the code failed): it may still be a credential.
                mask = mask.withExtracted(value);
                if (inspection.success()) {
                    extracted.add(new Extracted(judged.extracts().get(i).name(), value));
                }
            }
        }
        out.println("  response, " + bytes(received.bytes().length) + ":");
        dump(received.bytes());
        out.println("  framing: " + framing(inspection, http, judged) + (http ? ", judged:" : ""));
        if (http) {
            dump(inspection.body());
        }
        String codeRule =
                judged.codeType().name().toLowerCase(Locale.ROOT)
                        + " "
                        + judged.codeTag()
                        + " in "
                        + judged.codeLocation().name().toLowerCase(Locale.ROOT);
        out.println(
                "  code: "
                        + (inspection.code() == null ? "none found" : quoted(inspection.code()))
                        + " ("
                        + codeRule
                        + "), success is "
                        + quoted(judged.codeSuccess().getBytes(StandardCharsets.ISO_8859_1))
                        + (http && !judged.httpStatuses().isEmpty()
                                ? ", status " + String.join(",", judged.httpStatuses())
                                : ""));
        boolean success = inspection.success();
        String failure =
                rule == null ? null : carried(inspection, judged, sent, variables, rule, checked);
        if (failure != null) {
            success = false;
        }
        out.println(
                "  verdict: "
                        + (success ? "success" : "failure")
                        + (failure == null ? "" : " (" + failure + ")"));
        return new Judged(success, extracted);
    }

    /** The response's values read as the load reads them: extracted, and echoes found. */
    private static ResponseValues.Checked check(ResponseValues rule, Inspection inspection) {
        ByteBuf head = Unpooled.wrappedBuffer(inspection.head());
        ByteBuf body = Unpooled.wrappedBuffer(inspection.body());
        return rule.check(
                head,
                0,
                inspection.head().length,
                body,
                0,
                inspection.body().length,
                inspection.success());
    }

    /**
     * Shows the values the response carried (extracted into the connection's variables, checked
     * against what was sent) as the load reads them; the reason they fail it, or null.
     */
    private String carried(
            Inspection inspection,
            ResponseSpec judged,
            byte[][] sent,
            Variables variables,
            ResponseValues rule,
            ResponseValues.Checked checked) {
        for (int i = 0; i < judged.extracts().size(); i++) {
            ValueRule extract = judged.extracts().get(i);
            byte[] value = checked.extracted()[i];
            out.println(
                    "  extract "
                            + extract.name()
                            + " ("
                            + extract.describe()
                            + "): "
                            + (!inspection.success()
                                    ? "not taken, the response failed its code"
                                    : value == null ? checked.failures()[i] : mask.shown(value)));
        }
        for (int i = 0; i < judged.echoes().size(); i++) {
            ValueRule echo = judged.echoes().get(i);
            byte[] value = checked.echoed()[i];
            byte[] expected = sent == null ? null : sent[i];
            out.println(
                    "  echo "
                            + echo.name()
                            + " ("
                            + echo.describe()
                            + "): "
                            + (expected == null
                                    ? "not checked, the request did not send it"
                                    : "sent "
                                            + mask.shown(expected)
                                            + ", found "
                                            + (value == null
                                                    ? "none ("
                                                            + checked.failures()[
                                                                    judged.extracts().size() + i]
                                                            + ")"
                                                    : mask.shown(value))));
        }
        return rule.settle(checked, sent, variables);
    }

    private static List<String> variablesOf(Variables variables) {
        return variables == null ? List.of() : variables.names();
    }

    /** How the response was read: its head, length field and body, or its HTTP parts. */
    private static String framing(Inspection inspection, boolean http, ResponseSpec judged) {
        if (http) {
            return "HTTP status "
                    + inspection.status()
                    + ", header lines "
                    + bytes(inspection.head().length)
                    + ", body "
                    + bytes(inspection.body().length)
                    + " (de-chunked)";
        }
        return "head "
                + bytes(inspection.head().length)
                + ", length field (bytes "
                + lengthFieldPlace(judged)
                + ") "
                + quoted(inspection.lengthField().getBytes(StandardCharsets.ISO_8859_1))
                + " = "
                + inspection.declaredLength()
                + ", body "
                + bytes(inspection.body().length);
    }

    /** A named response frames as {@code [response]} does: its framing keys are that one's. */
    private static String lengthFieldPlace(ResponseSpec judged) {
        return judged.lengthBegin() + "-" + (judged.lengthBegin() + judged.lengthWidth() - 1);
    }

    /** Bytes as hex and text, sixteen to a line, with their offset. */
    private void dump(byte[] data) {
        for (String line : hexLines(data, mask.over(data))) {
            out.println(line);
        }
    }

    static List<String> hexLines(byte[] data) {
        return hexLines(data, new boolean[data.length]);
    }

    /** As {@link #hexLines(byte[])}, masked bytes shown as {@code **} and {@code *}. */
    static List<String> hexLines(byte[] data, boolean[] masked) {
        List<String> lines = new ArrayList<>();
        for (int at = 0; at < data.length; at += BYTES_PER_LINE) {
            StringBuilder hex = new StringBuilder();
            StringBuilder text = new StringBuilder();
            for (int i = at; i < at + BYTES_PER_LINE; i++) {
                if (i < data.length && masked[i]) {
                    hex.append(DryRunResult.MASKED_BYTE).append(' ');
                    text.append('*');
                } else if (i < data.length) {
                    int b = data[i] & 0xFF;
                    hex.append(String.format(Locale.ROOT, "%02x ", b));
                    text.append(b >= 0x20 && b < 0x7F ? (char) b : '.');
                } else {
                    hex.append("   ");
                }
            }
            lines.add(String.format(Locale.ROOT, "    %04x  %s |%s|", at, hex, text));
        }
        return lines;
    }

    /** The bytes in double quotes, non-printable ones escaped. */
    private static String quoted(byte[] data) {
        StringBuilder text = new StringBuilder("\"");
        for (byte value : data) {
            int b = value & 0xFF;
            if (b == '"' || b == '\\') {
                text.append('\\').append((char) b);
            } else if (b >= 0x20 && b < 0x7F) {
                text.append((char) b);
            } else {
                text.append(String.format(Locale.ROOT, "\\x%02X", b));
            }
        }
        return text.append('"').toString();
    }

    private static String bytes(int count) {
        return count + (count == 1 ? " byte" : " bytes");
    }

    private static Connection close(Connection connection) {
        if (connection != null) {
            if (connection.tls() != null) {
                connection.tls().close();
            }
            try {
                connection.socket().close();
            } catch (IOException ignored) {
                // Closing is best effort: the dry run is over with this connection either way.
            }
        }
        return null;
    }
}
