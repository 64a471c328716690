package io.tcpload.runner.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;

/**
 * Just enough HTTP/1.1 for a {@link ScriptedServer} to read what a client sends: request line,
 * headers, and a {@code Content-Length} body. Requests are small in tests; a head over 64 KB is
 * refused rather than buffered.
 */
public final class HttpRequests {
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private HttpRequests() {}

    /** One request as it arrived. */
    public record Request(String requestLine, List<String> headers, String body) {
        /** The value of the first header of that name (case-insensitive), or null. */
        public String header(String name) {
            String prefix = name.toLowerCase(Locale.ROOT) + ":";
            for (String header : headers) {
                if (header.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                    return header.substring(prefix.length()).trim();
                }
            }
            return null;
        }
    }

    /** Reads one request; null when the peer closed before sending one. */
    public static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                if (head.size() == 0) {
                    return null;
                }
                throw new IOException("closed inside a request head");
            }
            head.write(b);
            if (head.size() > MAX_HEAD_BYTES) {
                throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
            }
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        String[] lines = text.substring(0, text.length() - 4).split("\r\n", -1);
        List<String> headers = new ArrayList<>(List.of(lines).subList(1, lines.length));
        Request withoutBody = new Request(lines[0], headers, "");
        String length = withoutBody.header("Content-Length");
        int bodyLength = length == null ? 0 : Integer.parseInt(length);
        byte[] body = in.readNBytes(bodyLength);
        if (body.length < bodyLength) {
            throw new IOException("closed inside a request body");
        }
        return new Request(lines[0], headers, new String(body, StandardCharsets.UTF_8));
    }

    /**
     * A script that answers every request of a connection with {@code status} and a short body,
     * keeping the connection open, and offers each request to {@code received} (a bounded queue
     * keeps the first ones).
     */
    public static ScriptedServer.Script responder(int status, Queue<Request> received) {
        byte[] body = ("status " + status).getBytes(StandardCharsets.US_ASCII);
        byte[] head =
                ("HTTP/1.1 " + status + " Whatever\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
        return (index, rawIn, out) -> {
            InputStream in = new BufferedInputStream(rawIn);
            for (Request request = read(in); request != null; request = read(in)) {
                received.offer(request);
                write(out, head, body);
            }
        };
    }

    private static void write(OutputStream out, byte[] head, byte[] body) throws IOException {
        out.write(head);
        out.write(body);
        out.flush();
    }
}
