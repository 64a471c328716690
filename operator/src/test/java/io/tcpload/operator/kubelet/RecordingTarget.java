package io.tcpload.operator.kubelet;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback target that keeps the body of every request it reads, so that a test sees what reached
 * the wire: requests framed by an 8-digit body length, each answered with the fixed code {@code
 * 000000} ({@link #PROFILE_RESPONSE} judges it a success), a body {@code signon} with that code and
 * the session {@link #SESSION} after it. It keeps at most {@link #MAX_BODIES} bodies and closes a
 * connection whose length field is not 8 digits. Made to answer at most so many requests, it holds
 * the rest unanswered (their connections open until the runner closes them), so that what it
 * counted is exactly what the runners received, however long they ran.
 */
final class RecordingTarget implements AutoCloseable {
    static final String PROFILE_RESPONSE =
            String.join(
                    "\n",
                    "[response]",
                    "rsp_code_type = fixed",
                    "rsp_code_location = body",
                    "rsp_code_location_tag = 1 6",
                    "rsp_code_success = 000000",
                    "");

    private static final int MAX_BODIES = 10_000;
    private static final byte[] SUCCESS = "00000006000000".getBytes(StandardCharsets.US_ASCII);

    /** The session a sign-on is given, bytes 7 to 15 of its response's body. */
    static final String SESSION = "sess-Kw3v";

    private static final byte[] SIGNED_ON =
            ("00000015000000" + SESSION).getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final int answerAtMost;
    private final AtomicInteger received = new AtomicInteger();

    RecordingTarget() throws IOException {
        this(Integer.MAX_VALUE);
    }

    /** A target that answers the first {@code answerAtMost} requests and holds the rest. */
    RecordingTarget(int answerAtMost) throws IOException {
        this.answerAtMost = answerAtMost;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "recording-target");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    List<String> bodies() {
        return List.copyOf(bodies);
    }

    /** How many requests it read, answered or held. */
    int received() {
        return received.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                Thread reader = new Thread(() -> serve(socket), "recording-target-connection");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket;
                InputStream in = new BufferedInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream()) {
            for (byte[] length = in.readNBytes(8); length.length == 8; length = in.readNBytes(8)) {
                String digits = new String(length, StandardCharsets.US_ASCII);
                if (!digits.matches("[0-9]{8}") || Integer.parseInt(digits) > 65_536) {
                    return;
                }
                byte[] body = in.readNBytes(Integer.parseInt(digits));
                if (received.incrementAndGet() > answerAtMost) {
                    in.readAllBytes(); // held until the runner closes the connection
                    return;
                }
                if (bodies.size() < MAX_BODIES) {
                    bodies.add(new String(body, StandardCharsets.UTF_8));
                }
                out.write(
                        new String(body, StandardCharsets.UTF_8).equals("signon")
                                ? SIGNED_ON
                                : SUCCESS);
                out.flush();
            }
        } catch (IOException closedByPeer) {
            // The runner closes its connections when the run ends.
        } finally {
            sockets.remove(socket);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
