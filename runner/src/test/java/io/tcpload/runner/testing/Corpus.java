package io.tcpload.runner.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.DataFileResolver;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.template.RequestTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one fixture for profiles in tests: the wrktcp captures of the test resources ({@code
 * wrktcp-corpus/}) and the profiles in other encodings ({@code encodings/}), those profiles loaded
 * or written as the records the loader gives, and builders for other profiles, requests and
 * response specs.
 */
public final class Corpus {
    private static final Charset GBK = Charset.forName("GBK");

    /** {@code 02_xml_body.ini}'s request body: the continued lines joined by newlines. */
    public static final String XML_BODY =
            "\n<root>\n    <head>\n        <bankno>313233000017</bankno>\n    </head>\n"
                    + "    <body>\n        <msg>HELLO,this is a test</msg>\n    </body>\n</root>";

    /** {@code 09_http.ini}'s request head as the loader assembles it. */
    public static final String HTTP_HEAD =
            "POST /wrktcp HTTP/1.1\r\nHost: www.wrktcp.com\r\nContent-Length: $(length)\r\n"
                    + "X-Seq: $(SEQ)\r\n\r\n";

    /** {@code 09_http.ini}'s request body. */
    public static final String HTTP_BODY =
            "\n{\n    \"name\":\"test\",\n    \"msgId\":\"$(SEQ)\"\n}\n";

    private Corpus() {}

    /** The bytes of a corpus file, e.g. {@code 01_tiny.req1.bin}. */
    public static byte[] bytes(String name) {
        try (InputStream in = Corpus.class.getResourceAsStream("/wrktcp-corpus/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no corpus file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String text(String name) {
        return new String(bytes(name), StandardCharsets.UTF_8);
    }

    /** A corpus profile with its port replaced by {@code port}. */
    public static Profile profile(String name, int port) throws ProfileException {
        String text = text(name + ".ini").replaceAll("(?m)^port = \\d+$", "port = " + port);
        return ProfileLoader.parse(text, Path.of(name + ".ini")).profile();
    }

    /**
     * A profile of the test resources' {@code encodings/} folder ({@code gbk}, {@code latin1}), in
     * its own encoding, with its port replaced by {@code port} and its data files read from that
     * folder.
     */
    public static Profile encodedProfile(String name, int port) throws ProfileException {
        String text =
                ByteText.decode(resource("encodings/" + name + ".ini"))
                        .replaceAll("(?m)^port = \\d+$", "port = " + port);
        return ProfileLoader.parse(
                        ByteText.encode(text),
                        Path.of(name + ".ini"),
                        file ->
                                new DataFileResolver.Found(
                                        file, ImmutableBytes.copyOf(resource("encodings/" + file))))
                .profile();
    }

    /**
     * The first three requests of an {@code encodings/} profile, computed by wrktcp's rules since
     * there are no captures: the template's bytes as they are, in the profile's encoding, with the
     * COUNTER's and the data file's bytes where the placeholders are.
     */
    public static List<byte[]> encodedRequests(String name) {
        List<byte[]> requests = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            if (name.equals("gbk")) {
                String account =
                        n % 2 == 1
                                ? "6222000011112222 \u5f20\u4e09"
                                : "6222000033334444 \u674e\u56db";
                byte[] body =
                        ("\n<\u62a5\u6587>\n  <\u6d41\u6c34\u53f7>\u6d41\u6c34%06d</\u6d41\u6c34\u53f7>\n"
                                        + "  <\u8d26\u53f7>%s</\u8d26\u53f7>\n"
                                        + "  <\u6237\u540d>\u5f20\u4e09</\u6237\u540d>\n</\u62a5\u6587>")
                                .formatted(n, account)
                                .getBytes(GBK);
                requests.add(concat(ascii("%08d".formatted(body.length)), body));
            } else {
                byte[] body =
                        ("{\"opera\u00e7\u00e3o\":\"d\u00e9bito\",\"n\u00famero\":\"n\u00ba%04d\","
                                        + "\"descri\u00e7\u00e3o\":\"caf\u00e9\"}")
                                .formatted(n)
                                .getBytes(StandardCharsets.ISO_8859_1);
                byte[] head =
                        ("POST /pagamento HTTP/1.1\r\nX-Cidade: S\u00e3o Paulo\r\n"
                                        + "Host: www.wrktcp.com\r\nContent-Length: "
                                        + body.length
                                        + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1);
                requests.add(concat(head, body));
            }
        }
        return requests;
    }

    /**
     * A response that an {@code encodings/} profile judges a success, then one it judges a failure:
     * the codes and tags are in the profile's encoding.
     */
    public static List<byte[]> encodedResponses(String name) {
        if (name.equals("gbk")) {
            String xml = "<\u5e94\u7b54><\u8fd4\u56de\u7801>%s</\u8fd4\u56de\u7801></\u5e94\u7b54>";
            return List.of(
                    tcpResponse(xml.formatted("\u6210\u529f").getBytes(GBK)),
                    tcpResponse(xml.formatted("\u5931\u8d25").getBytes(GBK)));
        }
        String json = "{\"c\u00f3digo\":\"%s\"}";
        return List.of(
                httpResponse(
                        json.formatted("aprova\u00e7\u00e3o")
                                .getBytes(StandardCharsets.ISO_8859_1)),
                httpResponse(json.formatted("recusado").getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** wrktcp's default framing: an 8-digit body length, then the body. */
    private static byte[] tcpResponse(byte[] body) {
        return concat(ascii("%08d".formatted(body.length)), body);
    }

    private static byte[] httpResponse(byte[] body) {
        return concat(
                ascii("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n"), body);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /** A file of the test resources, e.g. {@code encodings/gbk.ini}. */
    public static byte[] resource(String path) {
        try (InputStream in = Corpus.class.getResourceAsStream("/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Profile text parsed as if it were a file of that name. */
    public static Profile parse(String text) throws ProfileException {
        return ProfileLoader.parse(text, Path.of("test.ini")).profile();
    }

    // The corpus profiles written as the records the loader gives.

    /** {@code 01_tiny.ini}: every default. */
    public static Profile tinyProfile() {
        return profile(raw("$(length)", "this is a test"), ResponseSpec.defaults());
    }

    /** {@code 02_xml_body.ini}. */
    public static Profile xmlBodyProfile() {
        return profile(raw("XMLHEAD$(length)20201231", XML_BODY), xmlBodySpec());
    }

    /** {@code 05_json_code.ini}. */
    public static Profile jsonCodeProfile() {
        return profile(raw("$(length)", "{\"op\":\"query\",\"id\":\"42\"}"), jsonSpec());
    }

    /** {@code 09_http.ini}, without its parameter. */
    public static Profile httpProfile() {
        return profile(
                new RequestSpec(true, HTTP_HEAD, 0, HTTP_BODY, 0, 2, LengthType.BODY), httpSpec());
    }

    /** {@code 02_xml_body.ini}'s [response]. */
    public static ResponseSpec xmlBodySpec() {
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
    public static ResponseSpec jsonSpec() {
        return jsonSpec("\"retCode\"", "0000", List.of());
    }

    /** {@code 09_http.ini}'s [response]. */
    public static ResponseSpec httpSpec() {
        return jsonSpec("\"rspCd\"", "0000", List.of());
    }

    /** The default framing with a JSON code check. */
    public static ResponseSpec jsonSpec(String tag, String success, List<String> httpStatuses) {
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
    public static ResponseSpec withCode(
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
    public static ResponseSpec withFraming(
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

    // Builders for other profiles.

    /** A raw TCP request with wrktcp's default 8-digit body length field. */
    public static RequestSpec raw(String head, String body) {
        return raw(head, body, 8, LengthType.BODY);
    }

    public static RequestSpec raw(
            String head, String body, int lengthWidth, LengthType lengthType) {
        return new RequestSpec(false, head, 0, body, 0, lengthWidth, lengthType);
    }

    /** An HTTP request whose head is already assembled; Content-Length takes the digits needed. */
    public static RequestSpec http(String head, String body) {
        return new RequestSpec(true, head, 0, body, 0, 0, LengthType.BODY);
    }

    /** A profile for 127.0.0.1:9 with wrktcp's default [response]. */
    public static Profile profile(RequestSpec request, ParameterSpec... parameters) {
        return profile(request, ResponseSpec.defaults(), parameters);
    }

    /** A profile for 127.0.0.1:9. */
    public static Profile profile(
            RequestSpec request, ResponseSpec response, ParameterSpec... parameters) {
        return new Profile(
                null, new Target("127.0.0.1", 9), false, request, response, List.of(parameters));
    }

    /** A FILE parameter whose data file holds {@code content} as UTF-8. */
    public static ParameterSpec.File dataFile(String name, String content) {
        return new ParameterSpec.File(
                name,
                0,
                name.toLowerCase(Locale.ROOT) + ".txt",
                ImmutableBytes.copyOf(content.getBytes(StandardCharsets.UTF_8)));
    }

    /** The next request the template builds for a connection. */
    public static byte[] build(RequestTemplate template, long connectionId) {
        ByteBuf out = Unpooled.buffer(template.sizeHint());
        try {
            template.writeRequest(out, connectionId);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    /** {@link #build} as UTF-8 text. */
    public static String buildText(RequestTemplate template, long connectionId) {
        return new String(build(template, connectionId), StandardCharsets.UTF_8);
    }
}
