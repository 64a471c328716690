package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.ResponseSpec;

/**
 * Frames and judges one response as the engine does, and tells how: for a dry run, which shows the
 * head, the length field, the body and the code found. The rules are the decoders' own ({@link
 * LengthPrefixedFramer}, {@link HttpResponseFramer}, {@link CodeJudge}), so what a dry run shows is
 * what a load run counts. One instance per response; not thread-safe.
 */
public final class ResponseInspector {
    private final ResponseSpec framing;
    private final ResponseSpec judged;
    private final boolean http;
    private final CodeJudge judge;
    private final LengthPrefixedFramer lengthFramer;
    private final HttpResponseFramer httpFramer;

    /**
     * @param framing the profile's {@code [response]}, which frames every response
     * @param judged the rule of the request it answers ({@code [response.NAME]} or {@code framing})
     * @param http HTTP/1.1 framing, else length-prefixed
     * @param head whether it answers an HTTP HEAD request (no body, whatever the head announces)
     */
    public ResponseInspector(
            ResponseSpec framing, ResponseSpec judged, boolean http, boolean head) {
        this.framing = framing;
        this.judged = judged;
        this.http = http;
        this.judge = new CodeJudge(judged);
        this.lengthFramer = http ? null : new LengthPrefixedFramer(framing);
        this.httpFramer =
                http
                        ? new HttpResponseFramer(
                                framing.maxResponseBytes(), true, Long.MAX_VALUE, head)
                        : null;
    }

    /**
     * How a complete response was read and judged.
     *
     * @param size its bytes, head included
     * @param head its head: the fixed head, or HTTP's header block
     * @param lengthField the length field's text (length-prefixed only, else null)
     * @param declaredLength the length field's value, or in HTTP the body's length
     * @param body its body (HTTP: de-chunked)
     * @param status the HTTP status, or 0
     * @param code the code found, or null when the rule finds none
     * @param success whether it is judged a success
     */
    public record Inspection(
            int size,
            byte[] head,
            String lengthField,
            long declaredLength,
            byte[] body,
            int status,
            byte[] code,
            boolean success) {}

    /**
     * Reads one response from {@code in}'s reader index, consuming it when complete.
     *
     * @return how it was read, or null while more bytes are needed
     * @throws ResponseFramingException when the bytes cannot be framed
     */
    public Inspection inspect(ByteBuf in) {
        return http ? inspectHttp(in) : inspectLengthPrefixed(in);
    }

    /**
     * The response completed by the server closing the connection (an HTTP body without a length),
     * or null when the close cut it short.
     */
    public Inspection inspectOnClose() {
        return http && httpFramer.finishOnClose() ? httpInspection(0) : null;
    }

    private Inspection inspectLengthPrefixed(ByteBuf in) {
        int size = lengthFramer.responseSize(in);
        if (size < 0 || in.readableBytes() < size) {
            return null;
        }
        int start = in.readerIndex();
        int headLength = lengthFramer.headLength();
        byte[] head = ByteBufUtil.getBytes(in, start, headLength);
        byte[] body = ByteBufUtil.getBytes(in, start + headLength, size - headLength);
        String field =
                new String(
                        head,
                        framing.lengthBegin() - 1,
                        framing.lengthWidth(),
                        java.nio.charset.StandardCharsets.ISO_8859_1);
        boolean inHead = judge.location() == CodeLocation.HEAD;
        int areaIndex = inHead ? start : start + headLength;
        int areaLength = inHead ? headLength : size - headLength;
        int[] range = judge.codeRange(in, areaIndex, areaLength);
        byte[] code = range == null ? null : ByteBufUtil.getBytes(in, range[0], range[1]);
        boolean success = judge.isSuccess(in, areaIndex, areaLength);
        in.skipBytes(size);
        return new Inspection(size, head, field, size - headLength, body, 0, code, success);
    }

    private Inspection inspectHttp(ByteBuf in) {
        int before = in.readerIndex();
        if (!httpFramer.parse(in)) {
            return null;
        }
        return httpInspection(in.readerIndex() - before);
    }

    private Inspection httpInspection(int size) {
        ByteBuf headBuffer = httpFramer.headBuffer();
        ByteBuf bodyBuffer = httpFramer.bodyBuffer();
        byte[] head =
                ByteBufUtil.getBytes(headBuffer, httpFramer.headIndex(), httpFramer.headLength());
        byte[] body =
                ByteBufUtil.getBytes(bodyBuffer, httpFramer.bodyIndex(), httpFramer.bodyLength());
        boolean inHead = judge.location() == CodeLocation.HEAD;
        ByteBuf area = inHead ? headBuffer : bodyBuffer;
        int areaIndex = inHead ? httpFramer.headIndex() : httpFramer.bodyIndex();
        int areaLength = inHead ? httpFramer.headLength() : httpFramer.bodyLength();
        int[] range = judge.codeRange(area, areaIndex, areaLength);
        byte[] code = range == null ? null : ByteBufUtil.getBytes(area, range[0], range[1]);
        int status = httpFramer.statusCode();
        boolean success =
                judge.isSuccess(area, areaIndex, areaLength)
                        && new HttpStatusRule(judged.httpStatuses()).accepts(status);
        Inspection inspection =
                new Inspection(size, head, null, body.length, body, status, code, success);
        httpFramer.release();
        return inspection;
    }
}
