package io.tcpload.runner.template;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/** Builds profiles directly from records, and reads built requests back. */
final class TestProfiles {
    private TestProfiles() {}

    static RequestSpec raw(String head, String body, int lengthWidth, LengthType lengthType) {
        return new RequestSpec(false, head, 0, body, 0, lengthWidth, lengthType);
    }

    static RequestSpec http(String head, String body) {
        return new RequestSpec(true, head, 0, body, 0, 0, LengthType.BODY);
    }

    static Profile profile(RequestSpec request, ParameterSpec... parameters) {
        return new Profile(
                null,
                new Target("127.0.0.1", 9),
                false,
                request,
                ResponseSpec.defaults(),
                List.of(parameters));
    }

    /** A FILE parameter whose data file holds {@code content} as UTF-8. */
    static ParameterSpec.File dataFile(String name, String content) {
        return new ParameterSpec.File(
                name,
                0,
                name.toLowerCase() + ".txt",
                ImmutableBytes.copyOf(content.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] build(RequestTemplate template, long connectionId) {
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

    static String buildText(RequestTemplate template, long connectionId) {
        return new String(build(template, connectionId), StandardCharsets.UTF_8);
    }

    static byte[] corpus(String name) {
        try (InputStream in =
                Objects.requireNonNull(
                        TestProfiles.class.getResourceAsStream("/wrktcp-corpus/" + name), name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
