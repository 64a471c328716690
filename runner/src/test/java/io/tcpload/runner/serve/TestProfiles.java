package io.tcpload.runner.serve;

import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** The corpus profiles written as records (as the loader would produce them), and corpus bytes. */
final class TestProfiles {
    private TestProfiles() {}

    static final String XML_BODY =
            "\n<root>\n    <head>\n        <bankno>313233000017</bankno>\n    </head>\n"
                    + "    <body>\n        <msg>HELLO,this is a test</msg>\n    </body>\n</root>";

    static final String HTTP_HEAD =
            "POST /wrktcp HTTP/1.1\r\nHost: www.wrktcp.com\r\nContent-Length: $(length)\r\n"
                    + "X-Seq: $(SEQ)\r\n\r\n";

    static final String HTTP_BODY = "\n{\n    \"name\":\"test\",\n    \"msgId\":\"$(SEQ)\"\n}\n";

    static Profile tiny() {
        return profile(tcpRequest("$(length)", "this is a test"), ResponseSpec.defaults());
    }

    static Profile xmlBody() {
        return profile(
                tcpRequest("XMLHEAD$(length)20201231", XML_BODY),
                response(23, 8, 8, CodeType.XML, "<retCode>", 0, 0, "000000"));
    }

    static Profile jsonCode() {
        return profile(
                tcpRequest("$(length)", "{\"op\":\"query\",\"id\":\"42\"}"),
                response(8, 1, 8, CodeType.JSON, "\"retCode\"", 0, 0, "0000"));
    }

    static Profile http() {
        return profile(
                new RequestSpec(true, HTTP_HEAD, 0, HTTP_BODY, 0, 2, LengthType.BODY),
                response(8, 1, 8, CodeType.JSON, "\"rspCd\"", 0, 0, "0000"));
    }

    static RequestSpec tcpRequest(String head, String body) {
        return new RequestSpec(false, head, 0, body, 0, 8, LengthType.BODY);
    }

    static ResponseSpec response(
            int headLength,
            int lengthBegin,
            int lengthWidth,
            CodeType codeType,
            String tag,
            int fixedBegin,
            int fixedLength,
            String success) {
        return new ResponseSpec(
                headLength,
                lengthBegin,
                lengthWidth,
                LengthType.BODY,
                codeType,
                CodeLocation.BODY,
                tag,
                fixedBegin,
                fixedLength,
                success,
                List.of(),
                ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES);
    }

    static Profile profile(RequestSpec request, ResponseSpec response) {
        return new Profile(
                null, new Target("127.0.0.1", 18100), false, request, response, List.of());
    }

    /** The bytes of a corpus file, e.g. {@code 01_tiny.req1.bin}. */
    static byte[] corpus(String name) {
        try (InputStream in = TestProfiles.class.getResourceAsStream("/wrktcp-corpus/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no corpus file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
