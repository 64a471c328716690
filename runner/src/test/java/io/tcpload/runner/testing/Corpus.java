package io.tcpload.runner.testing;

import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.DataFileResolver;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The wrktcp captures copied into the test resources ({@code wrktcp-corpus/}). */
public final class Corpus {
    private static final Charset GBK = Charset.forName("GBK");

    private Corpus() {}

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
}
