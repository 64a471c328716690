package io.tcpload.runner.format;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Text that keeps every byte it was read from, whatever the encoding. wrktcp sends the bytes of its
 * INI file as they are, and its users' profiles are GBK, Latin-1 or UTF-8; tcpload reads profiles
 * as bytes and must give the very same bytes back, while its parser and its messages work on text.
 *
 * <p>The scheme: bytes that form valid UTF-8 are decoded as UTF-8; every other byte {@code b}
 * (always 0x80 to 0xFF, since ASCII is valid UTF-8) becomes the char {@code U+DC00 + b}, a lone low
 * surrogate that decoded text never holds (the "surrogateescape" of PEP 383). {@link #encode} turns
 * those chars back into their bytes and encodes the rest as UTF-8, so {@code encode(decode(b))}
 * equals {@code b} for any bytes, a UTF-8 profile reads as ordinary text, and the INI syntax (all
 * ASCII) is found as usual. Text that never came from bytes (a command-line argument) encodes as
 * UTF-8, as {@link String#getBytes} would.
 *
 * <p>Anything that puts profile text on the wire must use {@link #encode}, never {@code
 * getBytes(UTF_8)}, which would turn each kept byte into {@code ?}.
 */
public final class ByteText {
    private static final int ESCAPE_BASE = 0xDC00;
    private static final char FIRST_ESCAPE = 0xDC80;
    private static final char LAST_ESCAPE = 0xDCFF;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ByteText() {}

    /** The text of {@code bytes}: UTF-8 where valid, each other byte kept as its escape char. */
    public static String decode(byte[] bytes) {
        CharsetDecoder decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        // UTF-8 never gives more chars than bytes, and each kept byte is one char.
        CharBuffer out = CharBuffer.allocate(bytes.length);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isUnderflow()) {
                break;
            }
            for (int i = 0; i < result.length(); i++) {
                out.put((char) (ESCAPE_BASE | (in.get() & 0xFF)));
            }
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /** The bytes of {@code text}: kept bytes as they were, everything else as UTF-8. */
    public static byte[] encode(String text) {
        byte[] bytes = new byte[encodedLength(text)];
        int at = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes[at++] = (byte) c;
            } else if (c < 0x800) {
                bytes[at++] = (byte) (0xC0 | (c >> 6));
                bytes[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (isPair(text, i)) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                bytes[at++] = (byte) (0xF0 | (codePoint >> 18));
                bytes[at++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
                bytes[at++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
                bytes[at++] = (byte) (0x80 | (codePoint & 0x3F));
            } else if (isKeptByte(c)) {
                bytes[at++] = (byte) c;
            } else if (Character.isSurrogate(c)) {
                bytes[at++] = '?'; // half a pair, which no byte sequence gives
            } else {
                bytes[at++] = (byte) (0xE0 | (c >> 12));
                bytes[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return bytes;
    }

    /** The number of bytes {@link #encode} gives. */
    public static int encodedLength(String text) {
        int length = 0;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (isPair(text, i)) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                length += 1;
            } else {
                length += 3;
            }
        }
        return length;
    }

    /** Whether {@code text} holds a byte that is not valid UTF-8. */
    public static boolean hasKeptBytes(String text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (isPair(text, i)) {
                i++;
            } else if (isKeptByte(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The text for people: UTF-8 text as it is; text holding any byte that is not UTF-8 is in some
     * other encoding, so each of its non-ASCII bytes is shown as {@code \xC4} (a GBK pair can
     * happen to be valid UTF-8 and would otherwise show as an unrelated character).
     */
    public static String display(String text) {
        if (!hasKeptBytes(text)) {
            return text;
        }
        StringBuilder shown = new StringBuilder(text.length() * 4);
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                shown.append(c);
                continue;
            }
            int end = isPair(text, i) ? i + 2 : i + 1;
            for (byte b : encode(text.substring(i, end))) {
                shown.append("\\x").append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            i = end - 1;
        }
        return shown.toString();
    }

    private static boolean isPair(String text, int i) {
        return Character.isHighSurrogate(text.charAt(i))
                && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1));
    }

    /** A char standing for a byte (checked after pairs, so only a lone low surrogate). */
    private static boolean isKeptByte(char c) {
        return c >= FIRST_ESCAPE && c <= LAST_ESCAPE;
    }
}
