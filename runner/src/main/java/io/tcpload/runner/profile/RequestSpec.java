package io.tcpload.runner.profile;

import java.util.Objects;

/**
 * How each request is built. The wire bytes are the evaluated head template immediately followed by
 * the evaluated body template (nothing in between, as in wrktcp).
 *
 * <p>In raw TCP mode {@code headTemplate} is {@code req_head} (default {@code $(length)}). In HTTP
 * mode the loader has already assembled the whole head: the request line, each {@code req_head}
 * line, the automatic {@code Host} and {@code Content-Length} lines where missing, each ending in
 * CRLF, and the blank line.
 *
 * @param http whether this is HTTP mode ({@code http_line} present, or a URL)
 * @param headTemplate the head template text; placeholders are {@code $(name)}
 * @param headLine the INI line the head template starts on (0 when not from a file)
 * @param bodyTemplate the body template text (may be empty in HTTP mode)
 * @param bodyLine the INI line the body template starts on (0 when not from a file)
 * @param lengthWidth the digits of the {@code $(length)} field, zero-padded ({@code req_len_len});
 *     0 means "as many digits as the value needs", used for HTTP {@code Content-Length}
 * @param lengthType whether {@code $(length)} counts the body or the whole request
 */
public record RequestSpec(
        boolean http,
        String headTemplate,
        int headLine,
        String bodyTemplate,
        int bodyLine,
        int lengthWidth,
        LengthType lengthType) {

    /** The placeholder name that stands for the length field. */
    public static final String LENGTH = "length";

    public RequestSpec {
        Objects.requireNonNull(headTemplate, "headTemplate");
        Objects.requireNonNull(bodyTemplate, "bodyTemplate");
        Objects.requireNonNull(lengthType, "lengthType");
        if (lengthWidth < 0) {
            throw new IllegalArgumentException("lengthWidth < 0");
        }
    }

    /**
     * Whether these are HTTP HEAD requests, whose responses announce a body they do not carry. The
     * method is read as written in the request line (methods are case-sensitive); one given by a
     * placeholder is not known before the run and counts as another method.
     */
    public boolean head() {
        return http && headTemplate.startsWith("HEAD ");
    }
}
