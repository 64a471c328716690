package io.tcpload.runner.profile;

import io.tcpload.runner.profile.Section.Keys;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code [request]} into a {@link RequestSpec}: the raw TCP head and body templates, or in
 * HTTP mode the assembled request head (request line, header lines, automatic {@code Host} and
 * {@code Content-Length}) and the body.
 */
final class RequestSection {
    private static final String CRLF = "\r\n";
    private static final String DEFAULT_TCP_HEAD = "$(" + RequestSpec.LENGTH + ")";

    /** wrktcp's exact bytes when a profile gives no Host header. */
    private static final String DEFAULT_HOST_HEADER = "Host: www.wrktcp.com";

    private static final String CONTENT_LENGTH_HEADER =
            "Content-Length: $(" + RequestSpec.LENGTH + ")";
    private static final int DEFAULT_LENGTH_WIDTH = 8;
    private static final int MAX_LENGTH_WIDTH = 18;
    private static final Map<String, LengthType> LENGTH_TYPES =
            Map.of("body", LengthType.BODY, "total", LengthType.TOTAL);

    private final IniDocument document;
    private final Set<String> declared;
    private final Problems problems;

    /** The section as messages name it, and its header's line (0 for the plain one). */
    private final String header;

    private final int headerLine;

    private RequestSection(
            IniDocument document,
            Set<String> declared,
            String header,
            int headerLine,
            Problems problems) {
        this.document = document;
        this.declared = declared;
        this.header = header;
        this.headerLine = headerLine;
        this.problems = problems;
    }

    /**
     * @param httpLine the {@code http_line} entry in HTTP mode, empty in raw TCP mode
     * @param declared the declared parameter names
     */
    static RequestSpec read(
            IniDocument document,
            Optional<IniEntry> httpLine,
            Set<String> declared,
            Problems problems) {
        return read(document, httpLine, declared, "[request]", 0, problems);
    }

    /**
     * As {@link #read(IniDocument, Optional, Set, Problems)}, for the section {@code header} (a
     * {@code [request.NAME]}) that starts on {@code headerLine}.
     */
    static RequestSpec read(
            IniDocument document,
            Optional<IniEntry> httpLine,
            Set<String> declared,
            String header,
            int headerLine,
            Problems problems) {
        RequestSection section =
                new RequestSection(document, declared, header, headerLine, problems);
        return httpLine.isPresent() ? section.http(httpLine.get()) : section.tcp();
    }

    private RequestSpec tcp() {
        int lengthWidth =
                (int)
                        Values.integerOr(
                                last(Keys.REQ_LEN_LEN),
                                1,
                                MAX_LENGTH_WIDTH,
                                DEFAULT_LENGTH_WIDTH,
                                problems);
        Optional<IniEntry> head = last(Keys.REQ_HEAD);
        Optional<IniEntry> body = last(Keys.REQ_BODY);
        if (body.isEmpty()) {
            problems.error(
                    headerLine,
                    Keys.REQ_BODY,
                    "is required in "
                            + header
                            + ": the request body template (may contain $(NAME)"
                            + " placeholders).");
        }
        boolean headHasLength = head.map(this::check).orElse(true);
        boolean bodyHasLength = body.map(this::check).orElse(false);
        if (!headHasLength && !bodyHasLength) {
            problems.warn(
                    head.get().line(),
                    Keys.REQ_HEAD,
                    "neither req_head nor req_body contains $(length), so requests carry no"
                            + " length field and are sent as written.");
        }
        return new RequestSpec(
                false,
                head.map(IniEntry::value).orElse(DEFAULT_TCP_HEAD),
                head.map(IniEntry::line).orElse(0),
                body.map(IniEntry::value).orElse(""),
                body.map(IniEntry::line).orElse(0),
                lengthWidth,
                lengthType());
    }

    private RequestSpec http(IniEntry httpLine) {
        last(Keys.REQ_LEN_LEN)
                .ifPresent(
                        e ->
                                problems.warn(
                                        e.line(),
                                        e.key(),
                                        "is ignored in HTTP mode: Content-Length always carries"
                                                + " the real body length."));
        check(httpLine);
        StringBuilder head = new StringBuilder(httpLine.value()).append(CRLF);
        for (IniEntry header : document.all(Section.REQUEST, Keys.REQ_HEAD)) {
            check(header);
            head.append(header.value()).append(CRLF);
        }
        // Like wrktcp, a substring match anywhere in the head counts, even in the request line.
        String lower = head.toString().toLowerCase(Locale.ROOT);
        if (!lower.contains("host")) {
            head.append(DEFAULT_HOST_HEADER).append(CRLF);
        }
        if (!lower.contains("content-length")) {
            head.append(CONTENT_LENGTH_HEADER).append(CRLF);
        }
        head.append(CRLF);
        Optional<IniEntry> body = last(Keys.REQ_BODY);
        body.ifPresent(this::check);
        return new RequestSpec(
                true,
                head.toString(),
                httpLine.line(),
                body.map(IniEntry::value).orElse(""),
                body.map(IniEntry::line).orElse(0),
                0,
                lengthType());
    }

    private LengthType lengthType() {
        return last(Keys.REQ_LEN_TYPE)
                .flatMap(e -> Values.choice(e, LENGTH_TYPES, problems))
                .orElse(LengthType.BODY);
    }

    private boolean check(IniEntry template) {
        return Templates.check(template, declared, problems);
    }

    private Optional<IniEntry> last(String key) {
        return document.last(Section.REQUEST, key);
    }
}
