package io.tcpload.runner.profile;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16LE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Profiles in any encoding whose INI syntax is ASCII keep their bytes; messages stay readable. */
class ProfileEncodingTest {
    private static final Charset GBK = Charset.forName("GBK");

    private static Profile parse(byte[] content) throws ProfileException {
        return ProfileLoader.parse(content, Path.of("p.ini"), DataFileResolver.besideProfile(null))
                .profile();
    }

    private static List<ProfileProblem> problems(byte[] content) {
        try {
            ProfileLoader.parse(content, Path.of("p.ini"), DataFileResolver.besideProfile(null));
            throw new AssertionError("expected the profile to be refused");
        } catch (ProfileException e) {
            return e.problems();
        }
    }

    @Test
    void aGbkProfileKeepsTheBytesOfItsTemplatesTagAndCode() throws Exception {
        LoadedProfile loaded =
                ProfileLoader.parse(
                        Corpus.resource("encodings/gbk.ini"),
                        Path.of("gbk.ini"),
                        name ->
                                new DataFileResolver.Found(
                                        name,
                                        ImmutableBytes.copyOf(
                                                Corpus.resource("encodings/" + name))));
        Profile profile = loaded.profile();

        assertThat(loaded.warnings()).isEmpty();
        assertThat(ByteText.encode(profile.request().bodyTemplate()))
                .isEqualTo(
                        ("\n<\u62a5\u6587>\n  <\u6d41\u6c34\u53f7>$(SEQ)</\u6d41\u6c34\u53f7>\n"
                                        + "  <\u8d26\u53f7>$(ACCT)</\u8d26\u53f7>\n"
                                        + "  <\u6237\u540d>\u5f20\u4e09</\u6237\u540d>\n</\u62a5\u6587>")
                                .getBytes(GBK));
        assertThat(ByteText.encode(profile.response().codeTag()))
                .isEqualTo("<\u8fd4\u56de\u7801>".getBytes(GBK));
        assertThat(ByteText.encode(profile.response().codeSuccess()))
                .isEqualTo("\u6210\u529f".getBytes(GBK));
    }

    @Test
    void aLatin1ProfileKeepsTheBytesOfItsHeaderAndJsonKey() throws Exception {
        Profile profile = parse(Corpus.resource("encodings/latin1.ini"));

        assertThat(ByteText.encode(profile.request().headTemplate()))
                .startsWith(
                        "POST /pagamento HTTP/1.1\r\nX-Cidade: S\u00e3o Paulo\r\n"
                                .getBytes(ISO_8859_1));
        assertThat(ByteText.encode(profile.response().codeTag()))
                .isEqualTo("\"c\u00f3digo\"".getBytes(ISO_8859_1));
    }

    @Test
    void formatsKeepTheirLiteralBytes() throws Exception {
        byte[] content =
                ProfileTexts.lines(
                                "host = h",
                                "port = 1",
                                "[request]",
                                "req_head =",
                                "req_body = $(SEQ)|$(NOW)",
                                "[parameters]",
                                "SEQ = COUNTER, 1, 9, 1, \u6d41\u6c34%02ld",
                                "NOW = DATETIME, %Y\u5e74%m\u6708%d\u65e5")
                        .getBytes(GBK);
        Clock clock = Clock.fixed(Instant.parse("2021-03-04T05:06:07Z"), ZoneOffset.UTC);
        RequestTemplate template =
                RequestTemplate.compile(parse(content), RunnerSlice.SINGLE, clock);
        ByteBuf out = Unpooled.buffer();

        template.writeRequest(out, 1);

        assertThat(ByteBufUtil.getBytes(out))
                .isEqualTo("\u6d41\u6c3401|2021\u5e7403\u670804\u65e5".getBytes(GBK));
        out.release();
    }

    @Test
    void messagesShowUtf8AsTextAndOtherBytesEscaped() {
        String unknownKey = "[request]\n\u540d\u5b57 = x\n";

        assertThat(problems(unknownKey.getBytes(UTF_8)))
                .anySatisfy(p -> assertThat(p.key()).isEqualTo("\u540d\u5b57"));
        assertThat(problems(unknownKey.getBytes(GBK)))
                .anySatisfy(p -> assertThat(p.key()).isEqualTo("\\xC3\\xFB\\xD7\\xD6"))
                .allSatisfy(p -> assertThat(p.toString()).doesNotContain("\ufffd", "?"));
    }

    @Test
    void aFilePathThatIsNotUtf8IsRefused() {
        byte[] content =
                ProfileTexts.lines(
                                "host = h",
                                "port = 1",
                                "[request]",
                                "req_body = $(A)",
                                "[parameters]",
                                "A = FILE, \u8d26\u53f7.txt")
                        .getBytes(GBK);

        assertThat(problems(content))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(6))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .isEqualTo(
                                                "the FILE path '\\xD5\\xCB\\xBA\\xC5.txt' is not"
                                                        + " UTF-8; give the data file a UTF-8 (or"
                                                        + " ASCII) name."));
    }

    @Test
    void utf16IsRefusedWithOneClearProblem() {
        byte[] utf16 = ("\ufeff" + ProfileTexts.tcp()).getBytes(UTF_16LE);

        assertThat(problems(utf16))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isZero())
                .satisfies(p -> assertThat(p.message()).startsWith("the profile is UTF-16 text"));
    }
}
