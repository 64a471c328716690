package io.tcpload.runner.codec;

import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** The wrktcp wire captures on the test class path, and the response specs of their profiles. */
final class Corpus {
    private Corpus() {}

    static byte[] bytes(String name) {
        try (InputStream in = Corpus.class.getResourceAsStream("/wrktcp-corpus/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing corpus file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code 02_xml_body.ini}'s [response]. */
    static ResponseSpec xmlBodySpec() {
        return new ResponseSpec(
                23,
                8,
                8,
                LengthType.BODY,
                CodeType.XML,
                CodeLocation.BODY,
                "<retCode>",
                0,
                0,
                "000000",
                List.of(),
                ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES);
    }

    /** {@code 05_json_code.ini}'s [response]: default framing, JSON code {@code "retCode"}. */
    static ResponseSpec jsonSpec() {
        return jsonSpec("\"retCode\"", "0000", List.of());
    }

    /** {@code 09_http.ini}'s [response]. */
    static ResponseSpec httpSpec() {
        return jsonSpec("\"rspCd\"", "0000", List.of());
    }

    static ResponseSpec jsonSpec(String tag, String success, List<String> httpStatuses) {
        ResponseSpec d = ResponseSpec.defaults();
        return new ResponseSpec(
                d.headLength(),
                d.lengthBegin(),
                d.lengthWidth(),
                d.lengthType(),
                CodeType.JSON,
                CodeLocation.BODY,
                tag,
                0,
                0,
                success,
                httpStatuses,
                d.maxResponseBytes());
    }

    /** The defaults with another code check. */
    static ResponseSpec withCode(
            CodeType type, CodeLocation location, String tag, int begin, int length, String ok) {
        ResponseSpec d = ResponseSpec.defaults();
        return new ResponseSpec(
                d.headLength(),
                d.lengthBegin(),
                d.lengthWidth(),
                d.lengthType(),
                type,
                location,
                tag,
                begin,
                length,
                ok,
                d.httpStatuses(),
                d.maxResponseBytes());
    }

    /** The defaults with another framing. */
    static ResponseSpec withFraming(
            int headLength, int lengthBegin, int lengthWidth, LengthType type, long maxBytes) {
        ResponseSpec d = ResponseSpec.defaults();
        return new ResponseSpec(
                headLength,
                lengthBegin,
                lengthWidth,
                type,
                d.codeType(),
                d.codeLocation(),
                d.codeTag(),
                d.fixedCodeBegin(),
                d.fixedCodeLength(),
                d.codeSuccess(),
                d.httpStatuses(),
                maxBytes);
    }
}
