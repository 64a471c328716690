package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * An incremental HTTP/1.1 response framer over a cumulating {@link ByteBuf}.
 *
 * <p>Reads the status line and headers (only {@code Content-Length}, {@code Transfer-Encoding} and
 * {@code Connection} matter), skips 1xx interim responses, and frames the body by {@code
 * Content-Length}, by chunked transfer coding (extensions and trailers allowed) or, failing both,
 * by the connection closing. 204 and 304 responses have no body, nor, in a framer made for them,
 * answers to HEAD requests, whatever their {@code Content-Length} or {@code Transfer-Encoding} say.
 *
 * <p>After {@link #parse} or {@link #finishOnClose} returns {@code true}, the status, the head
 * block (the header lines after the status line, up to the blank line) and the de-chunked body can
 * be read through the accessors until the next call. A response with a {@code Content-Length} of at
 * most {@value #IN_PLACE_BODY_BYTES} bytes is awaited whole and exposed in place from the input
 * buffer; longer, chunked and close-delimited ones are consumed as they arrive, the first {@code
 * bodyPrefixBytes} of their body and (if {@code retainHead}) their head copied into per-connection
 * buffers that are reused from one response to the next, so steady-state parsing allocates nothing,
 * and a long body costs no more memory than what is kept of it.
 *
 * <p>Nothing is sized from a declared length: the header section is capped at {@value
 * #MAX_HEADER_BYTES} bytes, and a {@code Content-Length}, chunk size or body above {@code
 * maxBodyBytes} is a {@link ResponseFramingException} as soon as it is seen.
 *
 * <p>Not thread-safe: one instance per connection, used from its event loop.
 */
public final class HttpResponseFramer {
    /** The largest status line plus header section, and separately the largest trailer section. */
    public static final int MAX_HEADER_BYTES = 64 * 1024;

    /** The longest chunk-size line (size and extensions). */
    static final int MAX_CHUNK_LINE_BYTES = 4096;

    /**
     * Copy buffers that grew beyond this are dropped after use, so one big response does not pin
     * memory.
     */
    private static final int RETAINED_COPY_BYTES = 64 * 1024;

    /**
     * The longest {@code Content-Length} body awaited whole in the input buffer: a longer one is
     * consumed as it arrives, so a 100 MB download costs each connection what its judge keeps of
     * it, not 100 MB.
     */
    static final int IN_PLACE_BODY_BYTES = 64 * 1024;

    /**
     * How much of the head every connection's framer reads at a time from its own array: the whole
     * head of most responses (nginx sends about 240 bytes).
     */
    private static final int WINDOW_BYTES = 512;

    /** The longest body a buffer can hold whole, for a framer asked to keep whole bodies. */
    private static final long MAX_BUFFER_BYTES = Integer.MAX_VALUE - MAX_HEADER_BYTES;

    /**
     * The largest {@code Content-Length} or chunk size read (64 PiB): a body consumed as it arrives
     * has no other bound (a URL run's has none, as wrk's), and an answer to HEAD describes a body
     * that does not come, but the value must still fit a long while it is read.
     */
    private static final long MAX_ANNOUNCED_BYTES = 1L << 56;

    private static final byte CR = '\r';
    private static final byte LF = '\n';
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] HTTP_1 = ascii("HTTP/1.");

    private enum State {
        HEADERS,
        FIXED_BODY,
        CHUNK_SIZE,
        CHUNK_DATA,
        CHUNK_DATA_END,
        TRAILERS,
        LENGTH_BODY,
        CLOSE_BODY
    }

    private enum Step {
        NEED_MORE,
        CONTINUE,
        COMPLETE
    }

    private final long maxBodyBytes;
    private final boolean retainHead;
    private final long bodyPrefixBytes;

    /** Whether every response answers a HEAD request, and so has no body. */
    private final boolean bodiless;

    private State state = State.HEADERS;

    // HEADERS and FIXED_BODY keep the input unconsumed; these offsets count from its reader index.
    private int scanOffset;
    private int lineStart;
    private int statusLineEnd = -1;
    private int headBlockEnd;
    private int bodyStart;

    private int statusCode;
    private long contentLength = -1;
    private boolean chunked;
    private boolean http10;
    private boolean transferEncoding;
    private boolean connectionClose;
    private boolean connectionKeepAlive;
    private long chunkRemaining;
    private long bodyBytes;
    private int trailerBytes;

    /** The part of the head being read, copied from the input; see {@link #headers}. */
    private final byte[] window = new byte[WINDOW_BYTES];

    private ByteBuf headCopy;
    private ByteBuf bodyCopy;

    /**
     * Tells when a body's leading bytes already decide every judge, so that the copy stops there;
     * null to copy {@code bodyPrefixBytes} of every body.
     */
    private final BodyDecision decision;

    /** How many leading bytes of the current body are copied: {@code bodyPrefixBytes} or fewer. */
    private long bodyKeptLimit;

    /** How many body bytes the copy holds when {@link #decision} is next asked: doubling. */
    private long nextDecisionBytes;

    private int completedStatus;
    private boolean completedCloses;
    private ByteBuf headBuffer = Unpooled.EMPTY_BUFFER;
    private int headIndex;
    private int headLength;
    private ByteBuf bodyBuffer = Unpooled.EMPTY_BUFFER;
    private int bodyIndex;
    private int bodyLength;
    private int bodyJudgedLength;

    /**
     * @param maxBodyBytes the largest body accepted ({@code max_response_bytes})
     * @param retainHead whether {@link #headBuffer()} must show the head block of every response
     * @param bodyPrefixBytes how many leading bytes of each body {@link #bodyBuffer()} must show (0
     *     for none, {@link Long#MAX_VALUE} for the whole body); {@link #bodyLength()} is the whole
     *     body's length either way
     */
    public HttpResponseFramer(long maxBodyBytes, boolean retainHead, long bodyPrefixBytes) {
        this(maxBodyBytes, retainHead, bodyPrefixBytes, false);
    }

    /**
     * As {@link #HttpResponseFramer(long, boolean, long)}, for a connection whose requests are all
     * HEAD requests when {@code bodiless}: every response then ends at its blank line.
     */
    public HttpResponseFramer(
            long maxBodyBytes, boolean retainHead, long bodyPrefixBytes, boolean bodiless) {
        this(maxBodyBytes, retainHead, bodyPrefixBytes, bodiless, null);
    }

    /**
     * Whether the leading {@code length} bytes of a body at {@code index} of {@code body} decide
     * what its judges and value rules read of it, so that more bytes cannot change it.
     */
    @FunctionalInterface
    public interface BodyDecision {
        boolean decidedBy(ByteBuf body, int index, int length);
    }

    /**
     * As {@link #HttpResponseFramer(long, boolean, long, boolean)}, copying of a body longer than
     * {@value #IN_PLACE_BODY_BYTES} bytes only up to where {@code decision} says its leading bytes
     * decide (a tag near the start of a long body), checked each time the copy doubles; {@link
     * #bodyBuffer()} then holds fewer bytes than {@link #bodyLength()} counts.
     */
    public HttpResponseFramer(
            long maxBodyBytes,
            boolean retainHead,
            long bodyPrefixBytes,
            boolean bodiless,
            BodyDecision decision) {
        this.decision = decision;
        // Only a body kept whole must fit a buffer; one consumed as it arrives (with at most a
        // short prefix kept) may be as long as the peer sends.
        this.maxBodyBytes =
                Math.min(
                        maxBodyBytes,
                        bodyPrefixBytes >= MAX_BUFFER_BYTES
                                ? MAX_BUFFER_BYTES
                                : MAX_ANNOUNCED_BYTES);
        this.retainHead = retainHead;
        this.bodyPrefixBytes = bodyPrefixBytes;
        this.bodiless = bodiless;
    }

    /**
     * Parses from {@code in}'s reader index, consuming what it has framed.
     *
     * @return {@code true} when a response is complete (read it through the accessors; call again
     *     for the next one), {@code false} when more bytes are needed
     * @throws ResponseFramingException on a malformed or oversized response; the framer is then
     *     unusable
     */
    public boolean parse(ByteBuf in) {
        for (; ; ) {
            Step step =
                    switch (state) {
                        case HEADERS -> headers(in);
                        case FIXED_BODY -> fixedBody(in);
                        case CHUNK_SIZE -> chunkSize(in);
                        case CHUNK_DATA -> chunkData(in);
                        case CHUNK_DATA_END -> chunkDataEnd(in);
                        case TRAILERS -> trailers(in);
                        case LENGTH_BODY -> lengthBody(in);
                        case CLOSE_BODY -> closeBody(in);
                    };
            if (step == Step.NEED_MORE) {
                return false;
            }
            if (step == Step.COMPLETE) {
                return true;
            }
        }
    }

    /**
     * Tells the framer the peer closed the connection, after {@link #parse} has seen every byte.
     *
     * @return {@code true} if that completed a close-delimited response (even one with an empty
     *     body); {@code false} if no response was in progress or it was cut short
     */
    public boolean finishOnClose() {
        if (state != State.CLOSE_BODY) {
            return false;
        }
        completeCopied();
        completedCloses = true;
        return true;
    }

    /** The status code of the last complete response. */
    public int statusCode() {
        return completedStatus;
    }

    /**
     * Whether the last complete response was the connection's last (RFC 9112 9.3): it said {@code
     * Connection: close}, or it was HTTP/1.0 without {@code Connection: keep-alive}, or its body
     * ended with the connection.
     */
    public boolean closesConnection() {
        return completedCloses;
    }

    /** Skips the stray line breaks some servers send between responses; see {@link #parse}. */
    public void skipBetweenResponses(ByteBuf in) {
        if (state == State.HEADERS && statusLineEnd < 0 && scanOffset == 0) {
            skipLeadingLineBreaks(in);
        }
    }

    /** The buffer holding the last complete response's head block (empty unless retained). */
    public ByteBuf headBuffer() {
        return headBuffer;
    }

    public int headIndex() {
        return headIndex;
    }

    public int headLength() {
        return headLength;
    }

    /**
     * The buffer holding the last complete response's body, or as much of its start as was asked to
     * be kept (empty if nothing).
     */
    public ByteBuf bodyBuffer() {
        return bodyBuffer;
    }

    public int bodyIndex() {
        return bodyIndex;
    }

    /** The whole body's length, even where {@link #bodyBuffer()} holds only its start. */
    public int bodyLength() {
        return bodyLength;
    }

    /**
     * How much of the body the judges and value rules read: {@link #bodyLength()}, or where the
     * copy stopped because its leading bytes decided them (see {@link BodyDecision}).
     */
    public int bodyJudgedLength() {
        return bodyJudgedLength;
    }

    /** The capacity of the copy buffers held now; what this connection's copies cost. */
    public int retainedCopyBytes() {
        return (headCopy == null ? 0 : headCopy.capacity())
                + (bodyCopy == null ? 0 : bodyCopy.capacity());
    }

    /** Releases the reusable copy buffers; call when the connection's decoder is removed. */
    public void release() {
        headBuffer = Unpooled.EMPTY_BUFFER;
        bodyBuffer = Unpooled.EMPTY_BUFFER;
        if (headCopy != null) {
            headCopy.release();
            headCopy = null;
        }
        if (bodyCopy != null) {
            bodyCopy.release();
            bodyCopy = null;
        }
    }

    // ---- status line and headers: scanned line by line, consumed only once the section is whole

    private Step headers(ByteBuf in) {
        if (statusLineEnd < 0 && scanOffset == 0) {
            skipLeadingLineBreaks(in);
        }
        int ri = in.readerIndex();
        int readable = in.readableBytes();
        int limit = Math.min(readable, MAX_HEADER_BYTES);
        // The window holds in[ri + windowFrom, ri + windowEnd): the head is scanned and read from
        // it with plain array reads, copied in one go, instead of byte by byte through the
        // buffer, whose every read is a call or two and a bounds check until C2 has compiled the
        // whole path (a run of 20 s or less never gets there).
        int windowFrom = lineStart;
        int windowEnd = fillWindow(in, ri, windowFrom, limit);
        for (; ; ) {
            int lf = -1;
            int from = scanOffset;
            if (from < windowEnd) {
                int at = indexOf(window, from - windowFrom, windowEnd - windowFrom, LF);
                from = windowEnd;
                lf = at < 0 ? -1 : windowFrom + at;
            }
            if (lf < 0 && from < limit) {
                if (lineStart > windowFrom) {
                    // The line goes on past the window: read on from the line's start.
                    windowFrom = lineStart;
                    windowEnd = fillWindow(in, ri, windowFrom, limit);
                    continue;
                }
                // A line longer than the window: its end is looked for in the buffer.
                int found = in.indexOf(ri + from, ri + limit, LF);
                lf = found < 0 ? -1 : found - ri;
            }
            if (lf < 0) {
                scanOffset = limit;
                if (readable >= MAX_HEADER_BYTES) {
                    throw new ResponseFramingException(
                            "HTTP response header section exceeds " + MAX_HEADER_BYTES + " bytes");
                }
                return Step.NEED_MORE;
            }
            int cr = lf - 1;
            boolean crBefore =
                    lf > lineStart
                            && (cr < windowEnd ? window[cr - windowFrom] : in.getByte(ri + cr))
                                    == CR;
            int contentEnd = crBefore ? cr : lf;
            scanOffset = lf + 1;
            // The line starts in the window, which holds all of it or (a long line) its start.
            int at = lineStart - windowFrom;
            int length = contentEnd - lineStart;
            int held = Math.min(length, windowEnd - lineStart);
            if (statusLineEnd < 0) {
                parseStatusLine(at, length, held, in, ri + lineStart);
                statusLineEnd = scanOffset;
            } else if (length == 0) {
                headBlockEnd = lineStart;
                bodyStart = scanOffset;
                return headersDone(in);
            } else {
                parseHeaderLine(at, length, held, in, ri + lineStart);
            }
            lineStart = scanOffset;
        }
    }

    /**
     * Copies as much of {@code in} from {@code ri + from} as the window holds, up to {@code limit}.
     *
     * @return the end of what it holds, relative to {@code ri} as {@code from} is
     */
    private int fillWindow(ByteBuf in, int ri, int from, int limit) {
        int n = Math.min(limit - from, window.length);
        if (n > 0) {
            in.getBytes(ri + from, window, 0, n);
        }
        return from + n;
    }

    /** Tolerates stray line breaks between responses, as common HTTP clients do. */
    private static void skipLeadingLineBreaks(ByteBuf in) {
        while (in.isReadable()) {
            byte b = in.getByte(in.readerIndex());
            if (b != CR && b != LF) {
                return;
            }
            in.skipBytes(1);
        }
    }

    /**
     * The status line: {@code length} bytes, the first {@code held} of them in the window at {@code
     * at}; {@code in} holds it at {@code index}, to quote it in an error.
     */
    private void parseStatusLine(int at, int length, int held, ByteBuf in, int index) {
        // HTTP/1.x SP 3DIGIT [SP reason]
        byte[] w = window;
        boolean ok = length >= 12 && equals(w, at, HTTP_1);
        ok = ok && isDigit(w[at + 7]) && w[at + 8] == ' ';
        ok = ok && (length == 12 || (held > 12 && w[at + 12] == ' '));
        int code = 0;
        for (int i = 9; ok && i < 12; i++) {
            byte b = w[at + i];
            ok = isDigit(b);
            code = code * 10 + (b - '0');
        }
        if (!ok || code < 100) {
            throw new ResponseFramingException(
                    "malformed HTTP status line "
                            + ResponseFramingException.quote(in, index, length));
        }
        statusCode = code;
        http10 = w[at + 7] == '0';
    }

    /**
     * Looks at {@code Content-Length}, {@code Transfer-Encoding} and {@code Connection}; other
     * lines are skipped. The line is {@code length} bytes, the first {@code held} of them in the
     * window at {@code at}; {@code in} holds it whole at {@code index}.
     */
    private void parseHeaderLine(int at, int length, int held, ByteBuf in, int index) {
        // Only three header names matter, and most lines of a response are other headers (Server,
        // Date, ETag...): a line whose first letter rules them out is skipped unread. Connection
        // and Content-Length share it.
        byte[] line = window;
        int first = line[at] | 0x20;
        if (first != CONTENT_LENGTH[0] && first != TRANSFER_ENCODING[0]) {
            return;
        }
        // A line longer than the window is copied whole only once its name is known to matter:
        // a server's long Cookie or Content-Security-Policy lines cost no allocation, and no
        // server can make every connection keep a large array.
        int colon = indexOf(line, at, at + held, (byte) ':');
        if (colon < 0 && held < length) {
            line = wholeLine(in, index, length);
            at = 0;
            held = length;
            colon = indexOf(line, 0, length, (byte) ':');
        }
        if (colon < 0) {
            return;
        }
        int nameEnd = colon;
        while (nameEnd > at && isBlank(line[nameEnd - 1])) {
            nameEnd--;
        }
        int nameLength = nameEnd - at;
        boolean contentLength = equalsIgnoreCase(line, at, nameLength, CONTENT_LENGTH);
        boolean connection = !contentLength && equalsIgnoreCase(line, at, nameLength, CONNECTION);
        if (!contentLength
                && !connection
                && !equalsIgnoreCase(line, at, nameLength, TRANSFER_ENCODING)) {
            return;
        }
        if (held < length) {
            line = wholeLine(in, index, length);
            colon -= at;
            at = 0;
        }
        int valueFrom = colon + 1;
        int valueEnd = at + length;
        while (valueFrom < valueEnd && isBlank(line[valueFrom])) {
            valueFrom++;
        }
        while (valueEnd > valueFrom && isBlank(line[valueEnd - 1])) {
            valueEnd--;
        }
        if (contentLength) {
            parseContentLength(line, valueFrom, valueEnd, in, index - at);
        } else if (connection) {
            parseConnection(line, valueFrom, valueEnd);
        } else {
            // The last coding decides; a response whose last coding is not chunked ends on close.
            transferEncoding = true;
            int tokenFrom = valueEnd;
            while (tokenFrom > valueFrom && line[tokenFrom - 1] != ',') {
                tokenFrom--;
            }
            while (tokenFrom < valueEnd && isBlank(line[tokenFrom])) {
                tokenFrom++;
            }
            chunked = equalsIgnoreCase(line, tokenFrom, valueEnd - tokenFrom, CHUNKED);
        }
    }

    /** A header line longer than the kept array, copied whole for once. */
    private static byte[] wholeLine(ByteBuf in, int from, int length) {
        byte[] line = new byte[length];
        in.getBytes(from, line, 0, length);
        return line;
    }

    /**
     * Looks for the {@code close} and {@code keep-alive} options among the comma-separated ones.
     */
    private void parseConnection(byte[] line, int from, int end) {
        int tokenFrom = from;
        while (tokenFrom < end) {
            int comma = indexOf(line, tokenFrom, end, (byte) ',');
            int tokenEnd = comma < 0 ? end : comma;
            int a = tokenFrom;
            int b = tokenEnd;
            while (a < b && isBlank(line[a])) {
                a++;
            }
            while (b > a && isBlank(line[b - 1])) {
                b--;
            }
            connectionClose |= equalsIgnoreCase(line, a, b - a, CLOSE);
            connectionKeepAlive |= equalsIgnoreCase(line, a, b - a, KEEP_ALIVE);
            tokenFrom = tokenEnd + 1;
        }
    }

    /**
     * The value {@code line[from, end)}; {@code in} at {@code lineIndex} holds the same line, to
     * quote it in an error.
     */
    private void parseContentLength(byte[] line, int from, int end, ByteBuf in, int lineIndex) {
        long value = 0;
        for (int i = from; i < end; i++) {
            byte b = line[i];
            if (!isDigit(b)) {
                throw new ResponseFramingException(
                        "bad HTTP Content-Length "
                                + ResponseFramingException.quote(in, lineIndex + from, end - from));
            }
            value = value * 10 + (b - '0');
            if (value > MAX_ANNOUNCED_BYTES) {
                throw new ResponseFramingException(
                        "HTTP Content-Length "
                                + ResponseFramingException.quote(in, lineIndex + from, end - from)
                                + " is too large");
            }
            if (!bodiless && value > maxBodyBytes) {
                throw new ResponseFramingException(
                        "HTTP Content-Length "
                                + ResponseFramingException.quote(in, lineIndex + from, end - from)
                                + " exceeds max_response_bytes "
                                + maxBodyBytes);
            }
        }
        if (from == end) {
            throw new ResponseFramingException("empty HTTP Content-Length");
        }
        if (contentLength >= 0 && contentLength != value) {
            throw new ResponseFramingException(
                    "conflicting HTTP Content-Length headers " + contentLength + " and " + value);
        }
        contentLength = value;
    }

    private Step headersDone(ByteBuf in) {
        if (transferEncoding && http10) {
            // RFC 9112 6.1: the framing of such a message cannot be trusted.
            throw new ResponseFramingException("Transfer-Encoding in an HTTP/1.0 response");
        }
        if (statusCode < 200) {
            in.skipBytes(bodyStart);
            resetForNextResponse();
            return Step.CONTINUE;
        }
        boolean noBody = bodiless || statusCode == 204 || statusCode == 304;
        if (noBody || (!chunked && contentLength >= 0 && contentLength <= IN_PLACE_BODY_BYTES)) {
            if (noBody) {
                contentLength = 0;
            }
            state = State.FIXED_BODY;
            return Step.CONTINUE;
        }
        if (retainHead) {
            ByteBuf copy = headCopy();
            copy.writeBytes(in, in.readerIndex() + statusLineEnd, headBlockEnd - statusLineEnd);
        }
        in.skipBytes(bodyStart);
        bodyBytes = 0;
        if (bodyPrefixBytes > 0) {
            bodyCopy();
            bodyKeptLimit = bodyPrefixBytes;
            nextDecisionBytes = IN_PLACE_BODY_BYTES;
        }
        state =
                chunked
                        ? State.CHUNK_SIZE
                        : contentLength >= 0 ? State.LENGTH_BODY : State.CLOSE_BODY;
        return Step.CONTINUE;
    }

    // ---- short Content-Length (and empty) bodies: awaited whole, exposed in place

    private Step fixedBody(ByteBuf in) {
        long total = bodyStart + contentLength;
        if (in.readableBytes() < total) {
            return Step.NEED_MORE;
        }
        int ri = in.readerIndex();
        completedStatus = statusCode;
        completedCloses = connectionClose || (http10 && !connectionKeepAlive);
        headBuffer = in;
        headIndex = ri + statusLineEnd;
        headLength = headBlockEnd - statusLineEnd;
        bodyBuffer = in;
        bodyIndex = ri + bodyStart;
        bodyLength = (int) contentLength;
        bodyJudgedLength = bodyLength;
        // The bytes stay readable by absolute index until the caller's next read into the buffer.
        in.skipBytes((int) total);
        resetForNextResponse();
        return Step.COMPLETE;
    }

    // ---- chunked bodies: consumed as they arrive

    private Step chunkSize(ByteBuf in) {
        int ri = in.readerIndex();
        int readable = in.readableBytes();
        int lf = in.indexOf(ri, ri + Math.min(readable, MAX_CHUNK_LINE_BYTES), LF);
        if (lf < 0) {
            if (readable >= MAX_CHUNK_LINE_BYTES) {
                throw new ResponseFramingException(
                        "HTTP chunk size line exceeds " + MAX_CHUNK_LINE_BYTES + " bytes");
            }
            return Step.NEED_MORE;
        }
        int lineEnd = lf > ri && in.getByte(lf - 1) == CR ? lf - 1 : lf;
        int from = ri;
        while (from < lineEnd && isBlank(in.getByte(from))) {
            from++;
        }
        int digitsEnd = from;
        while (digitsEnd < lineEnd && hexValue(in.getByte(digitsEnd)) >= 0) {
            digitsEnd++;
        }
        int rest = digitsEnd;
        while (rest < lineEnd && isBlank(in.getByte(rest))) {
            rest++;
        }
        if (digitsEnd == from || (rest < lineEnd && in.getByte(rest) != ';')) {
            throw new ResponseFramingException(
                    "bad HTTP chunk size line "
                            + ResponseFramingException.quote(in, ri, lineEnd - ri));
        }
        long size = 0;
        for (int i = from; i < digitsEnd; i++) {
            size = size * 16 + hexValue(in.getByte(i));
            if (size > MAX_ANNOUNCED_BYTES) {
                throw new ResponseFramingException(
                        "HTTP chunk size "
                                + ResponseFramingException.quote(in, from, digitsEnd - from)
                                + " is too large");
            }
            if (size > maxBodyBytes) {
                throw new ResponseFramingException(
                        "HTTP chunk size "
                                + ResponseFramingException.quote(in, from, digitsEnd - from)
                                + " exceeds max_response_bytes "
                                + maxBodyBytes);
            }
        }
        if (bodyBytes + size > maxBodyBytes) {
            throw new ResponseFramingException(
                    "HTTP chunked body exceeds max_response_bytes " + maxBodyBytes);
        }
        in.skipBytes(lf - ri + 1);
        if (size == 0) {
            trailerBytes = 0;
            state = State.TRAILERS;
        } else {
            chunkRemaining = size;
            state = State.CHUNK_DATA;
        }
        return Step.CONTINUE;
    }

    private Step chunkData(ByteBuf in) {
        int n = (int) Math.min(in.readableBytes(), chunkRemaining);
        if (n == 0) {
            return Step.NEED_MORE;
        }
        consumeBody(in, n);
        chunkRemaining -= n;
        if (chunkRemaining == 0) {
            state = State.CHUNK_DATA_END;
        }
        return Step.CONTINUE;
    }

    private Step chunkDataEnd(ByteBuf in) {
        int ri = in.readerIndex();
        if (!in.isReadable()) {
            return Step.NEED_MORE;
        }
        byte first = in.getByte(ri);
        if (first == CR) {
            if (in.readableBytes() < 2) {
                return Step.NEED_MORE;
            }
            if (in.getByte(ri + 1) != LF) {
                throw missingChunkEnd(in);
            }
            in.skipBytes(2);
        } else if (first == LF) {
            in.skipBytes(1);
        } else {
            throw missingChunkEnd(in);
        }
        state = State.CHUNK_SIZE;
        return Step.CONTINUE;
    }

    private static ResponseFramingException missingChunkEnd(ByteBuf in) {
        return new ResponseFramingException(
                "HTTP chunk data not followed by CRLF but "
                        + ResponseFramingException.quote(
                                in, in.readerIndex(), Math.min(in.readableBytes(), 8)));
    }

    private Step trailers(ByteBuf in) {
        for (; ; ) {
            int ri = in.readerIndex();
            int readable = in.readableBytes();
            int room = MAX_HEADER_BYTES - trailerBytes;
            int lf = in.indexOf(ri, ri + Math.min(readable, room), LF);
            if (lf < 0) {
                if (readable >= room) {
                    throw new ResponseFramingException(
                            "HTTP trailer section exceeds " + MAX_HEADER_BYTES + " bytes");
                }
                return Step.NEED_MORE;
            }
            int lineLength = lf - ri + 1;
            boolean blank = lineLength == 1 || (lineLength == 2 && in.getByte(ri) == CR);
            in.skipBytes(lineLength);
            trailerBytes += lineLength;
            if (blank) {
                completeCopied();
                return Step.COMPLETE;
            }
        }
    }

    // ---- long Content-Length bodies: consumed as they arrive

    private Step lengthBody(ByteBuf in) {
        int n = (int) Math.min(in.readableBytes(), contentLength - bodyBytes);
        consumeBody(in, n);
        if (bodyBytes < contentLength) {
            return Step.NEED_MORE;
        }
        completeCopied();
        return Step.COMPLETE;
    }

    // ---- close-delimited bodies: consumed as they arrive, complete on close

    private Step closeBody(ByteBuf in) {
        int n = in.readableBytes();
        if (n == 0) {
            return Step.NEED_MORE;
        }
        if (bodyBytes + n > maxBodyBytes) {
            throw new ResponseFramingException(
                    "HTTP close-delimited body exceeds max_response_bytes " + maxBodyBytes);
        }
        consumeBody(in, n);
        return Step.NEED_MORE;
    }

    private void consumeBody(ByteBuf in, int n) {
        if (bodyBytes < bodyKeptLimit) {
            int kept = (int) Math.min(n, bodyKeptLimit - bodyBytes);
            bodyCopy.writeBytes(in, in.readerIndex(), kept);
            int copied = bodyCopy.readableBytes();
            if (decision != null && copied >= nextDecisionBytes) {
                if (decision.decidedBy(bodyCopy, bodyCopy.readerIndex(), copied)) {
                    bodyKeptLimit = bodyBytes + kept;
                } else {
                    nextDecisionBytes = 2 * nextDecisionBytes;
                }
            }
        }
        in.skipBytes(n);
        bodyBytes += n;
    }

    /** Completes a response whose head and body were copied. */
    private void completeCopied() {
        completedStatus = statusCode;
        completedCloses = connectionClose || (http10 && !connectionKeepAlive);
        headBuffer = retainHead ? headCopy : Unpooled.EMPTY_BUFFER;
        headIndex = headBuffer.readerIndex();
        headLength = headBuffer.readableBytes();
        bodyBuffer = bodyPrefixBytes > 0 ? bodyCopy : Unpooled.EMPTY_BUFFER;
        bodyIndex = bodyBuffer.readerIndex();
        // A body past 2 GiB was consumed as it arrived: only its kept prefix is read by index.
        bodyLength = (int) Math.min(bodyBytes, Integer.MAX_VALUE);
        bodyJudgedLength =
                bodyKeptLimit < bodyPrefixBytes ? bodyBuffer.readableBytes() : bodyLength;
        resetForNextResponse();
    }

    private void resetForNextResponse() {
        state = State.HEADERS;
        scanOffset = 0;
        lineStart = 0;
        statusLineEnd = -1;
        contentLength = -1;
        chunked = false;
        transferEncoding = false;
        connectionClose = false;
        connectionKeepAlive = false;
        chunkRemaining = 0;
        bodyBytes = 0;
    }

    private ByteBuf headCopy() {
        headCopy = reusable(headCopy);
        return headCopy;
    }

    private void bodyCopy() {
        bodyCopy = reusable(bodyCopy);
    }

    /** An empty copy buffer: the previous one cleared, unless it grew too big to keep. */
    private static ByteBuf reusable(ByteBuf buf) {
        if (buf != null && buf.capacity() <= RETAINED_COPY_BYTES) {
            return buf.clear();
        }
        if (buf != null) {
            buf.release();
        }
        // Grows with the bytes that actually arrive, never with a declared size.
        return Unpooled.buffer(256);
    }

    // ---- byte helpers

    private static boolean equals(byte[] line, int index, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (line[index + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Compares with a lower-case ASCII {@code expected}, ignoring the case of {@code line}. */
    private static boolean equalsIgnoreCase(byte[] line, int index, int length, byte[] expected) {
        if (length != expected.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int b = line[index + i];
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] line, int from, int end, byte value) {
        for (int i = from; i < end; i++) {
            if (line[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    private static int hexValue(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        return -1;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
