package io.tcpload.runner.serve;

import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.RequestSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds where each raw TCP request of a profile ends, knowing only the profile's request templates.
 *
 * <p>The head and body templates are turned into one pattern over bytes: literal text must match
 * exactly, every {@code $(PARAM)} matches the fewest bytes that let the rest match, and the first
 * {@code $(length)} matches exactly {@code lengthWidth} digits. Matching the start of the received
 * bytes against it gives the length field and where the head ends, so the request is {@code head +
 * L} bytes ({@link LengthType#BODY}) or {@code L} bytes ({@link LengthType#TOTAL}).
 *
 * <p>Limits, because the templates alone cannot say more:
 *
 * <ul>
 *   <li>A parameter value that contains the literal text following it in the template ends that
 *       parameter early.
 *   <li>When the head ends with a parameter and the body starts with one (both after the length
 *       field), the head is taken to end where the first of them starts.
 *   <li>Without a {@code $(length)} field a request is complete when the whole template matches;
 *       when such a template ends with a parameter, there is no way to see where that parameter
 *       ends, so a request is taken to be all the bytes received so far (a client that writes each
 *       request at once and waits for its response is served correctly; pipelined ones are not).
 *   <li>The fixed part of a request (up to the length field and the head end) must arrive within
 *       the first {@value #SEARCH_WINDOW_BYTES} bytes; so must a whole request without a length
 *       field.
 * </ul>
 *
 * <p>Thread-safe: immutable; each call uses its own matcher.
 */
public final class RequestFramer {

    /** Returned while the bytes received are a valid start but do not yet show the request size. */
    public static final int NEED_MORE = -1;

    /** How far into the received bytes the template is looked for. */
    public static final int SEARCH_WINDOW_BYTES = 64 * 1024;

    private enum Kind {
        LITERAL,
        PARAM,
        LENGTH,
        HEAD_END
    }

    private record Token(Kind kind, String latin1Text) {}

    private final Pattern pattern;
    private final boolean hasLengthField;
    private final boolean endsAtBufferEnd;
    private final LengthType lengthType;
    private final int maxRequestBytes;

    private RequestFramer(
            Pattern pattern,
            boolean hasLengthField,
            boolean endsAtBufferEnd,
            LengthType lengthType,
            int maxRequestBytes) {
        this.pattern = pattern;
        this.hasLengthField = hasLengthField;
        this.endsAtBufferEnd = endsAtBufferEnd;
        this.lengthType = lengthType;
        this.maxRequestBytes = maxRequestBytes;
    }

    /**
     * Builds the framer for a raw TCP request.
     *
     * @param maxRequestBytes a request declaring more bytes than this is malformed
     * @throws IllegalArgumentException for an HTTP request spec (HTTP framing applies there)
     */
    public static RequestFramer forRequest(RequestSpec request, int maxRequestBytes) {
        if (request.http()) {
            throw new IllegalArgumentException(
                    "HTTP requests are framed by HTTP, not by templates");
        }
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes < 1");
        }
        List<Token> tokens = new ArrayList<>();
        boolean lengthSeen = tokenize(request.headTemplate(), tokens, false);
        tokens.add(new Token(Kind.HEAD_END, ""));
        lengthSeen = tokenize(request.bodyTemplate(), tokens, lengthSeen);

        int end = tokens.size();
        if (lengthSeen) {
            int lengthIndex = indexOf(tokens, Kind.LENGTH);
            int headEndIndex = indexOf(tokens, Kind.HEAD_END);
            end = Math.max(lengthIndex, headEndIndex) + 1;
            // A lazy parameter at the end of the pattern would always match nothing: include the
            // tokens up to the next literal, which pins where the parameter really ends.
            while (end < tokens.size() && lastKind(tokens, end) == Kind.PARAM) {
                end++;
            }
        }
        boolean endsAtBufferEnd = !lengthSeen && lastKind(tokens, end) != Kind.LITERAL;
        return new RequestFramer(
                compile(tokens.subList(0, end), request.lengthWidth()),
                lengthSeen,
                endsAtBufferEnd,
                request.lengthType(),
                maxRequestBytes);
    }

    /** {@link #requestLength(CharSequence)} over {@code length} bytes of an array. */
    public int requestLength(byte[] bytes, int offset, int length)
            throws MalformedRequestException {
        return requestLength(new Latin1Chars(bytes, offset, length));
    }

    /**
     * The size in bytes of the first request in {@code bytes}, which may be more than has arrived,
     * or {@link #NEED_MORE}.
     *
     * @param bytes the bytes received and not yet consumed, one {@code char} per byte (ISO-8859-1)
     * @throws MalformedRequestException when the bytes cannot start a request of this profile, or
     *     declare one larger than the limit
     */
    public int requestLength(CharSequence bytes) throws MalformedRequestException {
        int available = bytes.length();
        Matcher matcher = pattern.matcher(bytes);
        matcher.region(0, Math.min(available, SEARCH_WINDOW_BYTES));
        if (!matcher.lookingAt()) {
            if (!matcher.hitEnd()) {
                throw new MalformedRequestException(
                        "the bytes received do not match the request template: " + preview(bytes));
            }
            if (available >= SEARCH_WINDOW_BYTES) {
                throw new MalformedRequestException(
                        "no request matching the template within the first "
                                + SEARCH_WINDOW_BYTES
                                + " bytes: "
                                + preview(bytes));
            }
            return NEED_MORE;
        }
        if (!hasLengthField) {
            if (endsAtBufferEnd) {
                return available == 0 ? NEED_MORE : available;
            }
            return matcher.end();
        }
        String digits = matcher.group("len");
        long declared = parseDigits(digits);
        long total = lengthType == LengthType.BODY ? matcher.start("head") + declared : declared;
        if (total > maxRequestBytes) {
            throw new MalformedRequestException(
                    "length field "
                            + digits
                            + " declares a request of "
                            + total
                            + " bytes, more than the limit of "
                            + maxRequestBytes);
        }
        if (total < matcher.end()) {
            throw new MalformedRequestException(
                    "length field "
                            + digits
                            + " declares a request of "
                            + total
                            + " bytes, shorter than its first "
                            + matcher.end()
                            + " bytes");
        }
        return (int) total;
    }

    private static long parseDigits(String digits) {
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            value = value * 10 + (digits.charAt(i) - '0');
            if (value > Integer.MAX_VALUE) {
                return Long.MAX_VALUE; // over any limit; the caller reports it
            }
        }
        return value;
    }

    private static boolean tokenize(String template, List<Token> tokens, boolean lengthSeen) {
        int from = 0;
        while (true) {
            int open = template.indexOf("$(", from);
            int close = open < 0 ? -1 : template.indexOf(')', open + 2);
            if (close < 0) {
                addLiteral(tokens, template.substring(from));
                return lengthSeen;
            }
            addLiteral(tokens, template.substring(from, open));
            String name = template.substring(open + 2, close);
            if (name.equals(RequestSpec.LENGTH) && !lengthSeen) {
                tokens.add(new Token(Kind.LENGTH, ""));
                lengthSeen = true;
            } else {
                // A second $(length) holds an unpredictable value too: treat it as a parameter.
                tokens.add(new Token(Kind.PARAM, ""));
            }
            from = close + 1;
        }
    }

    private static void addLiteral(List<Token> tokens, String text) {
        if (!text.isEmpty()) {
            // Templates keep the profile's bytes; requests are matched one char per byte.
            byte[] bytes = ByteText.encode(text);
            tokens.add(new Token(Kind.LITERAL, new String(bytes, StandardCharsets.ISO_8859_1)));
        }
    }

    private static int indexOf(List<Token> tokens, Kind kind) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).kind() == kind) {
                return i;
            }
        }
        return -1;
    }

    /** The kind of the last token before {@code end} that stands for bytes, or null if none. */
    private static Kind lastKind(List<Token> tokens, int end) {
        for (int i = end - 1; i >= 0; i--) {
            if (tokens.get(i).kind() != Kind.HEAD_END) {
                return tokens.get(i).kind();
            }
        }
        return null;
    }

    /**
     * Each run of parameters becomes an atomic group that ends at the first occurrence of what
     * follows (a literal or the length digits), so matching never backtracks into an earlier
     * choice: the cost stays linear in the bytes searched, even for hostile input.
     */
    private static Pattern compile(List<Token> tokens, int lengthWidth) {
        String digits = "(?<len>[0-9]" + (lengthWidth > 0 ? "{" + lengthWidth + "}" : "++") + ")";
        StringBuilder regex = new StringBuilder();
        int i = 0;
        while (i < tokens.size()) {
            Token token = tokens.get(i++);
            switch (token.kind()) {
                case LITERAL -> regex.append(Pattern.quote(token.latin1Text()));
                case LENGTH -> regex.append(digits);
                case HEAD_END -> regex.append("(?<head>)");
                case PARAM -> {
                    boolean headEnds = false;
                    while (i < tokens.size()
                            && (tokens.get(i).kind() == Kind.PARAM
                                    || tokens.get(i).kind() == Kind.HEAD_END)) {
                        headEnds |= tokens.get(i++).kind() == Kind.HEAD_END;
                    }
                    // Lazy parameters ahead of the head end would all match nothing, so the head
                    // ends where the run starts.
                    regex.append("(?>").append(headEnds ? "(?<head>)" : "").append(".*?");
                    if (i < tokens.size()) {
                        Token next = tokens.get(i++);
                        regex.append(
                                next.kind() == Kind.LENGTH
                                        ? digits
                                        : Pattern.quote(next.latin1Text()));
                    }
                    regex.append(')');
                }
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static String preview(CharSequence bytes) {
        StringBuilder text = new StringBuilder("\"");
        int shown = Math.min(bytes.length(), 40);
        for (int i = 0; i < shown; i++) {
            char c = bytes.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                text.append(c);
            } else {
                text.append(String.format("\\x%02x", (int) c));
            }
        }
        return text.append(bytes.length() > shown ? "\"..." : "\"").toString();
    }

    /** A byte array seen as ISO-8859-1 text, without copying. */
    private static final class Latin1Chars implements CharSequence {
        private final byte[] bytes;
        private final int offset;
        private final int length;

        Latin1Chars(byte[] bytes, int offset, int length) {
            if (offset < 0 || length < 0 || offset + length > bytes.length) {
                throw new IndexOutOfBoundsException("offset " + offset + ", length " + length);
            }
            this.bytes = bytes;
            this.offset = offset;
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return (char) (bytes[offset + index] & 0xff);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new Latin1Chars(bytes, offset + start, end - start);
        }

        @Override
        public String toString() {
            return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        }
    }
}
