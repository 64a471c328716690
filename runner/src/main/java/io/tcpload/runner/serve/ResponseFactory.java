package io.tcpload.runner.serve;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ResponseSpec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds the bytes of the responses a profile expects: one that its success rule accepts and one
 * that it rejects, each framed the way the profile's {@code [response]} section (raw TCP) or
 * HTTP/1.1 (HTTP mode) says. Everything is computed once, so serving a request copies no more than
 * a reference.
 *
 * <p>Raw TCP: a head of {@code headLength} bytes, {@code 0} except for the zero-padded length field
 * (and the code when the code is looked for in the head), then the body. The body carries the code
 * as the profile's code type finds it: at the fixed position, after the XML tag (closed by the
 * matching end tag) or as the JSON string after the key. The failure code has the same length as
 * the success code and differs from it in every byte.
 *
 * <p>HTTP: {@code HTTP/1.1} with the first status the profile accepts ({@code 200} when any),
 * {@code Content-Type}, {@code Content-Length} and the same bodies; a code looked for in the head
 * is sent in an {@code X-Result} header as XML or JSON text.
 *
 * <p>Thread-safe: immutable; accessors return copies.
 */
public final class ResponseFactory {

    /** The {@code Connection} header an HTTP response carries; raw TCP responses ignore it. */
    public enum Connection {
        /** No header: HTTP/1.1 keep-alive. */
        DEFAULT,
        /** {@code Connection: keep-alive}, for HTTP/1.0 clients that asked for it. */
        KEEP_ALIVE,
        /** {@code Connection: close}: the server closes after this response. */
        CLOSE
    }

    private final boolean http;
    private final String successCode;
    private final String failureCode;

    /** Indexed by [success ? 0 : 1][connection.ordinal()]. */
    private final byte[][][] responses;

    private ResponseFactory(
            boolean http, String successCode, String failureCode, byte[][][] responses) {
        this.http = http;
        this.successCode = successCode;
        this.failureCode = failureCode;
        this.responses = responses;
    }

    /**
     * Builds the responses for a profile.
     *
     * @throws IllegalArgumentException with a plain sentence naming the keys concerned when no
     *     response can satisfy the profile's framing and success rule together
     */
    public static ResponseFactory forProfile(Profile profile) {
        ResponseSpec spec = profile.response();
        boolean http = profile.request().http();
        byte[] success = ByteText.encode(spec.codeSuccess());
        byte[] failure = failureCode(success);
        if (spec.codeType() == CodeType.FIXED && success.length != spec.fixedCodeLength()) {
            throw new IllegalArgumentException(
                    "rsp_code_success \""
                            + ByteText.display(spec.codeSuccess())
                            + "\" is "
                            + success.length
                            + " bytes but rsp_code_location_tag \""
                            + ByteText.display(spec.codeTag())
                            + "\" reads "
                            + spec.fixedCodeLength()
                            + ", so no response could succeed");
        }
        if (spec.codeType() == CodeType.FIXED && spec.fixedCodeBegin() < 1) {
            throw new IllegalArgumentException(
                    "rsp_code_location_tag \""
                            + ByteText.display(spec.codeTag())
                            + "\" must start at 1 or later");
        }
        Connection[] connections = Connection.values();
        byte[][][] responses = new byte[2][connections.length][];
        for (Connection connection : connections) {
            responses[0][connection.ordinal()] =
                    http ? httpResponse(spec, success, connection) : tcpResponse(spec, success);
            responses[1][connection.ordinal()] =
                    http ? httpResponse(spec, failure, connection) : tcpResponse(spec, failure);
        }
        return new ResponseFactory(http, spec.codeSuccess(), ByteText.decode(failure), responses);
    }

    /** Whether the responses are HTTP messages. */
    public boolean http() {
        return http;
    }

    public String successCode() {
        return successCode;
    }

    /**
     * The code the failure response carries: as long as the success code, different in every byte.
     */
    public String failureCode() {
        return failureCode;
    }

    /** The whole response, as written on the wire. */
    public byte[] response(boolean success, Connection connection) {
        return responses[success ? 0 : 1][connection.ordinal()].clone();
    }

    /** The keep-alive response: {@code response(success, Connection.DEFAULT)}. */
    public byte[] response(boolean success) {
        return response(success, Connection.DEFAULT);
    }

    static byte[] failureCode(byte[] success) {
        if (success.length == 0) {
            return new byte[] {'9'};
        }
        byte[] failure = new byte[success.length];
        for (int i = 0; i < success.length; i++) {
            failure[i] = (byte) (success[i] == '9' ? '8' : '9');
        }
        return failure;
    }

    private static byte[] tcpResponse(ResponseSpec spec, byte[] code) {
        int headLength = spec.headLength();
        int lengthFrom = spec.lengthBegin() - 1;
        int lengthTo = lengthFrom + spec.lengthWidth();
        if (spec.lengthBegin() < 1 || spec.lengthWidth() < 1 || lengthTo > headLength) {
            throw new IllegalArgumentException(
                    "the length field (rsp_len_beg = "
                            + spec.lengthBegin()
                            + ", rsp_len_len = "
                            + spec.lengthWidth()
                            + ") does not fit in the "
                            + headLength
                            + "-byte head (rsp_headlen)");
        }
        byte[] head = new byte[headLength];
        Arrays.fill(head, (byte) '0');
        byte[] body;
        if (spec.codeLocation() == CodeLocation.BODY) {
            body = body(spec, code);
        } else {
            body = ascii(isSuccess(spec, code) ? "SUCCESS" : "FAILURE");
            placeCodeInHead(spec, code, head, lengthFrom, lengthTo);
        }
        long length = spec.lengthType() == LengthType.BODY ? body.length : headLength + body.length;
        String digits = Long.toString(length);
        if (digits.length() > spec.lengthWidth()) {
            throw new IllegalArgumentException(
                    "a "
                            + length
                            + "-byte response does not fit in the "
                            + spec.lengthWidth()
                            + "-digit length field (rsp_len_len)");
        }
        byte[] padded = ascii("0".repeat(spec.lengthWidth() - digits.length()) + digits);
        System.arraycopy(padded, 0, head, lengthFrom, padded.length);
        return concat(head, body);
    }

    private static void placeCodeInHead(
            ResponseSpec spec, byte[] code, byte[] head, int lengthFrom, int lengthTo) {
        if (spec.codeType() == CodeType.FIXED) {
            int codeFrom = spec.fixedCodeBegin() - 1;
            int codeTo = codeFrom + code.length;
            if (codeTo > head.length) {
                throw new IllegalArgumentException(
                        "the code (rsp_code_location_tag = \""
                                + ByteText.display(spec.codeTag())
                                + "\") ends past the "
                                + head.length
                                + "-byte head (rsp_headlen)");
            }
            if (codeFrom < lengthTo && lengthFrom < codeTo) {
                throw new IllegalArgumentException(
                        "the code in the head (rsp_code_location_tag = \""
                                + ByteText.display(spec.codeTag())
                                + "\", bytes "
                                + (codeFrom + 1)
                                + ".."
                                + codeTo
                                + ") overlaps the length field (rsp_len_beg, rsp_len_len, bytes "
                                + (lengthFrom + 1)
                                + ".."
                                + lengthTo
                                + ")");
            }
            System.arraycopy(code, 0, head, codeFrom, code.length);
            return;
        }
        byte[] snippet = snippet(spec, code);
        // The text goes after the length field if it fits there, else before it; the rest of
        // the head is spaces so that no other text can be mistaken for the tag.
        int at;
        if (head.length - lengthTo >= snippet.length) {
            at = lengthTo;
            Arrays.fill(head, lengthTo, head.length, (byte) ' ');
        } else if (lengthFrom >= snippet.length) {
            at = 0;
            Arrays.fill(head, 0, lengthFrom, (byte) ' ');
        } else {
            throw new IllegalArgumentException(
                    "the "
                            + head.length
                            + "-byte head (rsp_headlen) has no room for the "
                            + snippet.length
                            + " bytes of "
                            + ByteText.display(ByteText.decode(snippet))
                            + " next to its length field (rsp_code_location = head)");
        }
        System.arraycopy(snippet, 0, head, at, snippet.length);
    }

    private static byte[] body(ResponseSpec spec, byte[] code) {
        return switch (spec.codeType()) {
            case FIXED ->
                    concat(
                            ascii(" ".repeat(spec.fixedCodeBegin() - 1)),
                            code,
                            ascii(isSuccess(spec, code) ? "SUCCESS" : "FAILURE"));
            case XML -> concat(ascii("<root><head>"), snippet(spec, code), ascii("</head></root>"));
            case JSON -> {
                byte[] member = snippet(spec, code);
                // The snippet is {"tag":"code"}: extend it into an object with a message.
                byte[] open = Arrays.copyOf(member, member.length - 1);
                yield concat(
                        open,
                        ascii(isSuccess(spec, code) ? ",\"msg\":\"ok\"}" : ",\"msg\":\"no\"}"));
            }
        };
    }

    /** The smallest text that the XML or JSON rule reads {@code code} from. */
    private static byte[] snippet(ResponseSpec spec, byte[] code) {
        String tag = spec.codeTag();
        // The tag keeps the profile's bytes, whatever their encoding.
        byte[] tagBytes = ByteText.encode(tag);
        if (spec.codeType() == CodeType.XML) {
            return concat(tagBytes, code, ByteText.encode("</" + xmlElementName(tag) + ">"));
        }
        byte[] key = tag.startsWith("\"") ? tagBytes : ByteText.encode("\"" + tag + "\"");
        return concat(ascii("{"), key, ascii(":\""), code, ascii("\"}"));
    }

    /**
     * {@code <retCode>} and {@code <retCode a="1">} name {@code retCode}; other tags get "code".
     */
    static String xmlElementName(String tag) {
        if (!tag.startsWith("<") || tag.length() < 2) {
            return "code";
        }
        int end = 1;
        while (end < tag.length()
                && tag.charAt(end) != '>'
                && tag.charAt(end) != '/'
                && !Character.isWhitespace(tag.charAt(end))) {
            end++;
        }
        return end > 1 ? tag.substring(1, end) : "code";
    }

    private static boolean isSuccess(ResponseSpec spec, byte[] code) {
        return Arrays.equals(code, ByteText.encode(spec.codeSuccess()));
    }

    private static byte[] httpResponse(ResponseSpec spec, byte[] code, Connection connection) {
        if (spec.codeLocation() == CodeLocation.HEAD && spec.codeType() == CodeType.FIXED) {
            throw new IllegalArgumentException(
                    "a fixed-position code in the head (rsp_code_type = fixed, rsp_code_location ="
                            + " head) cannot be placed in HTTP headers; use xml or json, or the"
                            + " body");
        }
        boolean inHead = spec.codeLocation() == CodeLocation.HEAD;
        byte[] body =
                inHead ? ascii(isSuccess(spec, code) ? "SUCCESS" : "FAILURE") : body(spec, code);
        String contentType =
                inHead
                        ? "text/plain"
                        : switch (spec.codeType()) {
                            case FIXED -> "text/plain";
                            case XML -> "application/xml";
                            case JSON -> "application/json";
                        };
        int status = status(spec);
        StringBuilder head = new StringBuilder();
        head.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        head.append("Content-Type: ").append(contentType).append("\r\n");
        head.append("Content-Length: ").append(body.length).append("\r\n");
        switch (connection) {
            case DEFAULT -> {}
            case KEEP_ALIVE -> head.append("Connection: keep-alive\r\n");
            case CLOSE -> head.append("Connection: close\r\n");
        }
        byte[] headBytes = head.toString().getBytes(StandardCharsets.US_ASCII);
        if (inHead) {
            headBytes = concat(headBytes, ascii("X-Result: "), snippet(spec, code), ascii("\r\n"));
        }
        return concat(headBytes, ascii("\r\n"), body);
    }

    /** The first accepted status, {@code x} read as {@code 0}; 200 when 200 is accepted. */
    static int status(ResponseSpec spec) {
        for (String pattern : spec.httpStatuses()) {
            if (pattern.length() == 3 && "200".matches(pattern.replace("x", "[0-9]"))) {
                return 200;
            }
        }
        if (!spec.httpStatuses().isEmpty()) {
            String first = spec.httpStatuses().get(0).replace('x', '0');
            if (first.matches("[1-5][0-9][0-9]")) {
                return Integer.parseInt(first);
            }
        }
        return 200;
    }

    private static String reason(int status) {
        return HttpResponseStatus.valueOf(status).reasonPhrase();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
