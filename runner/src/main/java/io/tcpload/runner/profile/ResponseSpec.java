package io.tcpload.runner.profile;

import java.util.List;
import java.util.Objects;

/**
 * How a response is framed and judged.
 *
 * <p>Raw TCP framing (ignored in HTTP mode, where HTTP/1.1 framing applies): a fixed head of {@code
 * headLength} bytes holds a decimal length field at 1-based offset {@code lengthBegin}, {@code
 * lengthWidth} bytes wide, counting the body or the whole response.
 *
 * <p>Judging: the code is taken from the head or the body ({@code codeLocation}); for {@link
 * CodeType#FIXED} it is the {@code fixedCodeLength} bytes at 1-based {@code fixedCodeBegin}; for
 * {@link CodeType#XML} the text after the literal tag {@code codeTag} up to the next {@code </};
 * for {@link CodeType#JSON} the next double-quoted string after the literal tag {@code codeTag}.
 * The response succeeds when the code equals {@code codeSuccess} and, in HTTP mode, the status
 * matches one of {@code httpStatuses} (when that list is not empty).
 *
 * @param headLength {@code rsp_headlen}, at least 2
 * @param lengthBegin {@code rsp_len_beg}, 1-based
 * @param lengthWidth {@code rsp_len_len}, 1..10
 * @param lengthType {@code rsp_len_type}
 * @param codeType {@code rsp_code_type}
 * @param codeLocation {@code rsp_code_location}
 * @param codeTag {@code rsp_code_location_tag} as written (quotes kept)
 * @param fixedCodeBegin for FIXED: the 1-based start parsed from the tag; otherwise 0
 * @param fixedCodeLength for FIXED: the length parsed from the tag; otherwise 0
 * @param codeSuccess {@code rsp_code_success}
 * @param httpStatuses {@code rsp_http_status}: patterns of three characters, digits or {@code x}
 *     ({@code 200}, {@code 2xx}); empty means any status
 * @param maxResponseBytes {@code max_response_bytes}: a larger declared or received response is a
 *     read error, and nothing of that size is allocated
 * @param extracts the {@code rsp_extract} rules: values taken into the connection's variables
 * @param echoes the {@code rsp_echo} rules: values that must equal what the request sent
 */
public record ResponseSpec(
        int headLength,
        int lengthBegin,
        int lengthWidth,
        LengthType lengthType,
        CodeType codeType,
        CodeLocation codeLocation,
        String codeTag,
        int fixedCodeBegin,
        int fixedCodeLength,
        String codeSuccess,
        List<String> httpStatuses,
        long maxResponseBytes,
        List<ValueRule> extracts,
        List<ValueRule> echoes) {

    public static final long DEFAULT_MAX_RESPONSE_BYTES = 16L * 1024 * 1024;

    public ResponseSpec {
        Objects.requireNonNull(lengthType, "lengthType");
        Objects.requireNonNull(codeType, "codeType");
        Objects.requireNonNull(codeLocation, "codeLocation");
        Objects.requireNonNull(codeTag, "codeTag");
        Objects.requireNonNull(codeSuccess, "codeSuccess");
        httpStatuses = List.copyOf(httpStatuses);
        extracts = List.copyOf(extracts);
        echoes = List.copyOf(echoes);
    }

    /** A rule that carries no values from responses. */
    public ResponseSpec(
            int headLength,
            int lengthBegin,
            int lengthWidth,
            LengthType lengthType,
            CodeType codeType,
            CodeLocation codeLocation,
            String codeTag,
            int fixedCodeBegin,
            int fixedCodeLength,
            String codeSuccess,
            List<String> httpStatuses,
            long maxResponseBytes) {
        this(
                headLength,
                lengthBegin,
                lengthWidth,
                lengthType,
                codeType,
                codeLocation,
                codeTag,
                fixedCodeBegin,
                fixedCodeLength,
                codeSuccess,
                httpStatuses,
                maxResponseBytes,
                List.of(),
                List.of());
    }

    /** Whether the rule extracts or checks any value. */
    public boolean correlates() {
        return !extracts.isEmpty() || !echoes.isEmpty();
    }

    /**
     * wrktcp's defaults: 8-byte head that is the body length, code = first 6 body bytes "000000".
     */
    public static ResponseSpec defaults() {
        return new ResponseSpec(
                8,
                1,
                8,
                LengthType.BODY,
                CodeType.FIXED,
                CodeLocation.BODY,
                "1 6",
                1,
                6,
                "000000",
                List.of(),
                DEFAULT_MAX_RESPONSE_BYTES);
    }
}
