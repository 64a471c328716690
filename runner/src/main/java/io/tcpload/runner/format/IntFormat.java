package io.tcpload.runner.format;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A C printf format for one integer, as COUNTER and CONNECTID use ({@code %08ld}, {@code A%5d-},
 * {@code %x}): literal text around exactly one conversion. Rendering writes ASCII bytes without
 * creating objects.
 *
 * <p>The conversion is {@code %[flags][width][.precision][length]conv} with flags {@code -0+ #},
 * length modifiers {@code h hh l ll j z t q} and conversions {@code d i u x X o}; {@code %%} is a
 * literal percent sign. The value is always a 64-bit {@code long} and the length modifier is
 * accepted but does not narrow it: {@code %d} of 5000000000 prints all ten digits (C would print
 * whatever its {@code int} argument happened to hold). {@code u}, {@code x}, {@code X} and {@code
 * o} read the value as unsigned 64-bit, so {@code %u} of -1 is 18446744073709551615.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class IntFormat {

    /** Bounds width and precision so a hostile format cannot ask for gigabytes per value. */
    static final int MAX_WIDTH = 1024;

    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = p;
            p *= 10;
        }
    }

    private static final byte[] LOWER_DIGITS =
            "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UPPER_DIGITS =
            "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private final String pattern;
    private final byte[] prefix;
    private final byte[] suffix;
    private final boolean leftAlign;
    private final boolean zeroPad;
    private final boolean plusSign;
    private final boolean spaceSign;
    private final boolean alternate;
    private final int width;

    /** Minimum digits, or -1 when the format has no precision. */
    private final int precision;

    private final boolean signed;
    private final int radix;
    private final byte[] digitChars;
    private final int maxLength;

    private IntFormat(
            String pattern,
            byte[] prefix,
            byte[] suffix,
            String flags,
            int width,
            int precision,
            char conversion) {
        this.pattern = pattern;
        this.prefix = prefix;
        this.suffix = suffix;
        this.leftAlign = flags.indexOf('-') >= 0;
        this.zeroPad = flags.indexOf('0') >= 0;
        this.plusSign = flags.indexOf('+') >= 0;
        this.spaceSign = flags.indexOf(' ') >= 0;
        this.alternate = flags.indexOf('#') >= 0;
        this.width = width;
        this.precision = precision;
        this.signed = conversion == 'd' || conversion == 'i';
        this.radix =
                switch (conversion) {
                    case 'x', 'X' -> 16;
                    case 'o' -> 8;
                    default -> 10;
                };
        this.digitChars = conversion == 'X' ? UPPER_DIGITS : LOWER_DIGITS;
        // sign or "0x", then at most 22 octal digits of a 64-bit value (or the precision), plus
        // the one extra zero '#' may add to octal.
        int content = 2 + Math.max(precision, 22) + 1;
        this.maxLength = prefix.length + Math.max(width, content) + suffix.length;
    }

    /**
     * Parses a printf format.
     *
     * @throws IllegalArgumentException with a plain sentence when it is not exactly one integer
     *     conversion with literal text around it
     */
    public static IntFormat parse(String format) {
        if (format == null) {
            throw new IllegalArgumentException("integer format is missing");
        }
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        StringBuilder literal = before;
        boolean found = false;
        String flags = "";
        int width = 0;
        int precision = -1;
        char conversion = 0;
        int i = 0;
        int n = format.length();
        while (i < n) {
            char c = format.charAt(i);
            if (c != '%') {
                literal.append(c);
                i++;
                continue;
            }
            int start = i;
            i++;
            if (i < n && format.charAt(i) == '%') {
                literal.append('%');
                i++;
                continue;
            }
            int flagsStart = i;
            while (i < n && "-0+ #".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            String convFlags = format.substring(flagsStart, i);
            if (i < n && format.charAt(i) == '*') {
                throw fail(format, "a '*' width is not supported; write the width as digits");
            }
            int widthStart = i;
            while (i < n && Character.isDigit(format.charAt(i))) {
                i++;
            }
            int convWidth = number(format, widthStart, i, "width");
            int convPrecision = -1;
            if (i < n && format.charAt(i) == '.') {
                i++;
                if (i < n && format.charAt(i) == '*') {
                    throw fail(
                            format,
                            "a '*' precision is not supported; write the precision as digits");
                }
                int precisionStart = i;
                while (i < n && Character.isDigit(format.charAt(i))) {
                    i++;
                }
                convPrecision = number(format, precisionStart, i, "precision");
            }
            i = skipLengthModifier(format, i);
            if (i >= n) {
                throw fail(
                        format,
                        "'" + format.substring(start) + "' at the end is an unfinished conversion");
            }
            char conv = format.charAt(i);
            i++;
            if ("diuxXo".indexOf(conv) < 0) {
                throw fail(
                        format,
                        "'"
                                + format.substring(start, i)
                                + "' is not an integer conversion (use d, i, u, x, X or o)");
            }
            if (found) {
                throw new IllegalArgumentException(
                        "integer format must contain exactly one integer conversion such as"
                                + " %08ld; found more than one in '"
                                + format
                                + "'");
            }
            found = true;
            flags = convFlags;
            width = convWidth;
            precision = convPrecision;
            conversion = conv;
            literal = after;
        }
        if (!found) {
            throw new IllegalArgumentException(
                    "integer format must contain exactly one integer conversion such as %08ld;"
                            + " found none in '"
                            + format
                            + "'");
        }
        return new IntFormat(
                format,
                ByteText.encode(before.toString()),
                ByteText.encode(after.toString()),
                flags,
                width,
                precision,
                conversion);
    }

    private static int skipLengthModifier(String format, int i) {
        int n = format.length();
        if (i < n) {
            char c = format.charAt(i);
            if ((c == 'h' || c == 'l') && i + 1 < n && format.charAt(i + 1) == c) {
                return i + 2;
            }
            if ("hljztq".indexOf(c) >= 0) {
                return i + 1;
            }
        }
        return i;
    }

    private static int number(String format, int from, int to, String what) {
        if (from == to) {
            return 0;
        }
        if (to - from > 4 || Integer.parseInt(format.substring(from, to)) > MAX_WIDTH) {
            throw fail(
                    format,
                    "the "
                            + what
                            + " "
                            + format.substring(from, to)
                            + " is too large (at most "
                            + MAX_WIDTH
                            + ")");
        }
        return Integer.parseInt(format.substring(from, to));
    }

    private static IllegalArgumentException fail(String format, String reason) {
        return new IllegalArgumentException("integer format '" + format + "': " + reason);
    }

    /** The most bytes one rendered value can take, literal text included. */
    public int maxLength() {
        return maxLength;
    }

    /** The number of bytes {@code value} renders to, literal text included. */
    public int length(long value) {
        return render(value, null, null, 0, true);
    }

    /** Appends the rendered value to {@code out} (growing it if needed). */
    public void write(long value, ByteBuf out) {
        out.ensureWritable(maxLength);
        int start = out.writerIndex();
        int written = render(value, out, null, start, false);
        out.writerIndex(start + written);
    }

    /**
     * Writes the rendered value into {@code dst} at {@code offset}.
     *
     * @return the number of bytes written (at most {@link #maxLength()})
     * @throws IndexOutOfBoundsException when {@code dst} has no room for them
     */
    public int write(long value, byte[] dst, int offset) {
        int length = render(value, null, null, 0, true);
        if (offset < 0 || offset + length > dst.length) {
            throw new IndexOutOfBoundsException(
                    "need " + length + " bytes at offset " + offset + " of " + dst.length);
        }
        return render(value, null, dst, offset, false);
    }

    /** The renderer for both targets; exactly one of buf and arr is used unless measuring. */
    private int render(long value, ByteBuf buf, byte[] arr, int start, boolean measureOnly) {
        boolean negative = signed && value < 0;
        // The magnitude is read as unsigned: -Long.MIN_VALUE stays 2^63, which is right.
        long magnitude = negative ? -value : value;
        int digits = precision == 0 && magnitude == 0 ? 0 : digitCount(magnitude);
        int zeros = precision > digits ? precision - digits : 0;
        if (alternate && radix == 8 && zeros == 0 && (magnitude != 0 || digits == 0)) {
            zeros = 1; // '#' with o: the first digit is always 0
        }
        boolean hasSign = negative || (signed && (plusSign || spaceSign));
        int signLength = hasSign ? 1 : 0;
        int hexPrefixLength = alternate && radix == 16 && magnitude != 0 ? 2 : 0;
        int content = signLength + hexPrefixLength + zeros + digits;
        int pad = width > content ? width - content : 0;
        int total = prefix.length + content + pad + suffix.length;
        if (measureOnly) {
            return total;
        }
        // C ignores '0' when '-' is given or a precision is present.
        boolean padWithZeros = zeroPad && !leftAlign && precision < 0;
        int pos = start;
        for (byte b : prefix) {
            put(buf, arr, pos++, b);
        }
        if (!leftAlign && !padWithZeros) {
            pos = fill(buf, arr, pos, pad, ' ');
        }
        if (hasSign) {
            put(buf, arr, pos++, negative ? '-' : plusSign ? '+' : ' ');
        }
        if (hexPrefixLength > 0) {
            put(buf, arr, pos++, '0');
            put(buf, arr, pos++, digitChars == UPPER_DIGITS ? 'X' : 'x');
        }
        if (padWithZeros) {
            pos = fill(buf, arr, pos, pad, '0');
        }
        pos = fill(buf, arr, pos, zeros, '0');
        writeDigits(buf, arr, pos, digits, magnitude);
        pos += digits;
        if (leftAlign) {
            pos = fill(buf, arr, pos, pad, ' ');
        }
        for (byte b : suffix) {
            put(buf, arr, pos++, b);
        }
        return pos - start;
    }

    private int digitCount(long magnitude) {
        if (magnitude == 0) {
            return 1;
        }
        int bits = 64 - Long.numberOfLeadingZeros(magnitude);
        if (radix == 16) {
            return (bits + 3) / 4;
        }
        if (radix == 8) {
            return (bits + 2) / 3;
        }
        if (magnitude < 0) { // 2^63 or more as unsigned
            return Long.compareUnsigned(magnitude, POWERS_OF_TEN[18] * 10) >= 0 ? 20 : 19;
        }
        int count = 1;
        while (count < POWERS_OF_TEN.length && magnitude >= POWERS_OF_TEN[count]) {
            count++;
        }
        return count;
    }

    /** Writes the digits of an unsigned magnitude right to left into [pos, pos + digits). */
    private void writeDigits(ByteBuf buf, byte[] arr, int pos, int digits, long magnitude) {
        int at = pos + digits - 1;
        long rest = magnitude;
        if (digits > 0 && rest < 0) {
            long quotient = Long.divideUnsigned(rest, radix);
            put(buf, arr, at--, digitChars[(int) (rest - quotient * radix)]);
            rest = quotient;
        }
        while (at >= pos) {
            put(buf, arr, at--, digitChars[(int) (rest % radix)]);
            rest /= radix;
        }
    }

    private static int fill(ByteBuf buf, byte[] arr, int pos, int count, char c) {
        for (int i = 0; i < count; i++) {
            put(buf, arr, pos++, c);
        }
        return pos;
    }

    private static void put(ByteBuf buf, byte[] arr, int pos, int b) {
        if (buf != null) {
            buf.setByte(pos, b);
        } else {
            arr[pos] = (byte) b;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IntFormat other && pattern.equals(other.pattern);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode();
    }

    /** The format as written. */
    @Override
    public String toString() {
        return pattern;
    }
}
