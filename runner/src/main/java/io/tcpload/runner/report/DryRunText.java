package io.tcpload.runner.report;

import io.tcpload.runner.codec.ResponseInspector.Inspection;
import io.tcpload.runner.profile.ResponseSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The text of a dry run's printout ({@code --test}), apart from its I/O: bytes as hex and text
 * lines, how a response was framed, the code rule, quoted bytes. Pure, stateless.
 */
public final class DryRunText {
    private static final int BYTES_PER_LINE = 16;

    private DryRunText() {}

    /** Bytes as hex and text, sixteen to a line, with their offset. */
    public static List<String> hexLines(byte[] data) {
        return hexLines(data, new boolean[data.length]);
    }

    /** As {@link #hexLines(byte[])}, masked bytes shown as {@code **} and {@code *}. */
    public static List<String> hexLines(byte[] data, boolean[] masked) {
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

    /** How the response was read: its head, length field and body, or its HTTP parts. */
    public static String framing(Inspection inspection, boolean http, ResponseSpec judged) {
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

    /**
     * The code found and the rule that found it: {@code "000000" (xml <retCode> in body), success
     * is "000000"}, with the HTTP statuses judged.
     */
    public static String code(Inspection inspection, boolean http, ResponseSpec judged) {
        String rule =
                judged.codeType().name().toLowerCase(Locale.ROOT)
                        + " "
                        + judged.codeTag()
                        + " in "
                        + judged.codeLocation().name().toLowerCase(Locale.ROOT);
        return (inspection.code() == null ? "none found" : quoted(inspection.code()))
                + " ("
                + rule
                + "), success is "
                + quoted(judged.codeSuccess().getBytes(StandardCharsets.ISO_8859_1))
                + (http && !judged.httpStatuses().isEmpty()
                        ? ", status " + String.join(",", judged.httpStatuses())
                        : "");
    }

    /** The bytes in double quotes, non-printable ones escaped. */
    public static String quoted(byte[] data) {
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

    /** {@code 1 byte}, {@code 2 bytes}. */
    public static String bytes(int count) {
        return count + (count == 1 ? " byte" : " bytes");
    }
}
