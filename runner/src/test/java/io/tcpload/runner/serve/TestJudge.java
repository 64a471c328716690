package io.tcpload.runner.serve;

import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The test's own reading of a response, written from the wrktcp reference (sections 6.1 and 6.4),
 * independently of the code under test.
 */
final class TestJudge {
    private TestJudge() {}

    /** A raw TCP response split by its framing. */
    record Framed(byte[] head, byte[] body) {}

    /** The total size a raw TCP response declares, from its head. */
    static int declaredSize(ResponseSpec spec, byte[] head) {
        String field =
                new String(
                        head,
                        spec.lengthBegin() - 1,
                        spec.lengthWidth(),
                        StandardCharsets.US_ASCII);
        int length = Integer.parseInt(field);
        return spec.lengthType() == LengthType.BODY ? spec.headLength() + length : length;
    }

    static Framed frame(ResponseSpec spec, byte[] response) {
        byte[] head = Arrays.copyOf(response, spec.headLength());
        if (declaredSize(spec, head) != response.length) {
            throw new AssertionError(
                    "declared " + declaredSize(spec, head) + " bytes, got " + response.length);
        }
        return new Framed(head, Arrays.copyOfRange(response, spec.headLength(), response.length));
    }

    /** The code the judge extracts from the head or body, or null when the tag is missing. */
    static String code(ResponseSpec spec, byte[] head, byte[] body) {
        String area =
                new String(
                        spec.codeLocation() == CodeLocation.HEAD ? head : body,
                        StandardCharsets.UTF_8);
        String tag = spec.codeTag();
        if (spec.codeType() == CodeType.FIXED) {
            int from = spec.fixedCodeBegin() - 1;
            int to = from + spec.fixedCodeLength();
            return to <= area.length() ? area.substring(from, to) : null;
        }
        int at = area.indexOf(tag);
        if (at < 0) {
            return null;
        }
        int after = at + tag.length();
        if (spec.codeType() == CodeType.XML) {
            int close = area.indexOf("</", after);
            return close < 0 ? null : area.substring(after, close);
        }
        int open = area.indexOf('"', after);
        int close = open < 0 ? -1 : area.indexOf('"', open + 1);
        return close < 0 ? null : area.substring(open + 1, close);
    }

    /** The code of a whole HTTP response (headers as the head, the body after the blank line). */
    static String httpCode(ResponseSpec spec, byte[] response) {
        String text = new String(response, StandardCharsets.UTF_8);
        int blank = text.indexOf("\r\n\r\n");
        return code(
                spec,
                text.substring(0, blank + 2).getBytes(StandardCharsets.UTF_8),
                text.substring(blank + 4).getBytes(StandardCharsets.UTF_8));
    }
}
