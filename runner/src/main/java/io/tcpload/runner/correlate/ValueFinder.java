package io.tcpload.runner.correlate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.ValueRule;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds one {@link ValueRule}'s value in an area of a response (its head or its body), reading the
 * buffer in place. The rules are the code rule's (fixed place, text after an XML tag up to {@code
 * </}, the JSON string after a key), plus a regular expression's first group.
 *
 * <p>Bounded whatever the response: a value is at most {@link ValueRule#MAX_VALUE_BYTES}, a regular
 * expression sees at most the first {@link #REGEX_WINDOW_BYTES} of the area and gives up after
 * {@link #REGEX_STEPS} character reads. Nothing is allocated but the value found.
 *
 * <p>Immutable and thread-safe.
 */
public final class ValueFinder {
    /** How much of an area a regular expression searches. */
    public static final int REGEX_WINDOW_BYTES = 64 * 1024;

    /** How many characters a regular expression may read per response before it gives up. */
    public static final long REGEX_STEPS = 1_000_000;

    private static final byte[] XML_CLOSE = {'<', '/'};

    private final ValueRule rule;
    private final byte[] tag;
    private final Pattern pattern;

    public ValueFinder(ValueRule rule) {
        this.rule = rule;
        this.tag = ByteText.encode(rule.tag());
        this.pattern = rule.type() == ValueRule.Type.REGEX ? Pattern.compile(rule.tag()) : null;
    }

    public ValueRule rule() {
        return rule;
    }

    /**
     * A value found, or why there is none.
     *
     * @param value the value's bytes, or null
     * @param failure why there is none (for the error summary), or null
     */
    public record Found(byte[] value, String failure) {
        static Found of(byte[] value) {
            return new Found(value, null);
        }

        static Found none(String failure) {
            return new Found(null, failure);
        }
    }

    /** The value in {@code buf}'s area {@code [index, index + length)}; reads, changes nothing. */
    public Found find(ByteBuf buf, int index, int length) {
        int end = index + length;
        return switch (rule.type()) {
            case FIXED -> fixed(buf, index, length);
            case XML -> xml(buf, index, end);
            case JSON -> json(buf, index, end);
            case REGEX -> regex(buf, index, length);
        };
    }

    private Found fixed(ByteBuf buf, int index, int length) {
        long from = (long) rule.fixedBegin() - 1;
        if (from < 0 || from + rule.fixedLength() > length) {
            return Found.none(
                    "the "
                            + where()
                            + " has no bytes "
                            + rule.fixedBegin()
                            + " to "
                            + (from + rule.fixedLength()));
        }
        return bounded(buf, index + (int) from, rule.fixedLength());
    }

    private Found xml(ByteBuf buf, int index, int end) {
        int tagAt = indexOf(buf, index, end, tag);
        if (tagAt < 0) {
            return Found.none("no " + ByteText.display(rule.tag()) + " in the " + where());
        }
        int from = tagAt + tag.length;
        int close = indexOf(buf, from, end, XML_CLOSE);
        if (close < 0) {
            return Found.none("no </ after " + ByteText.display(rule.tag()) + " in the " + where());
        }
        return bounded(buf, from, close - from);
    }

    private Found json(ByteBuf buf, int index, int end) {
        int tagAt = indexOf(buf, index, end, tag);
        if (tagAt < 0) {
            return Found.none("no " + ByteText.display(rule.tag()) + " in the " + where());
        }
        int open = buf.indexOf(tagAt + tag.length, end, (byte) '"');
        int close = open < 0 ? -1 : closingQuote(buf, open + 1, end);
        if (close < 0) {
            return Found.none(
                    "no quoted value after " + ByteText.display(rule.tag()) + " in the " + where());
        }
        return bounded(buf, open + 1, close - open - 1);
    }

    /**
     * The quote that ends a JSON string whose text starts at {@code from}: not one escaped by a
     * backslash, so that {@code "a\"b"} is one value, kept with its escape as it arrived.
     */
    private static int closingQuote(ByteBuf buf, int from, int end) {
        for (int i = from; i < end; i++) {
            byte b = buf.getByte(i);
            if (b == '\\') {
                i++;
            } else if (b == '"') {
                return i;
            }
        }
        return -1;
    }

    private Found regex(ByteBuf buf, int index, int length) {
        int window = Math.min(length, REGEX_WINDOW_BYTES);
        BoundedChars chars = new BoundedChars(buf, index, window, REGEX_STEPS);
        try {
            Matcher matcher = pattern.matcher(chars);
            if (!matcher.find()) {
                return Found.none("regex " + ByteText.display(rule.tag()) + " matches nothing");
            }
            int group = matcher.groupCount() >= 1 ? 1 : 0;
            if (matcher.start(group) < 0) {
                return Found.none(
                        "regex " + ByteText.display(rule.tag()) + " matched without its group");
            }
            return bounded(
                    buf, index + matcher.start(group), matcher.end(group) - matcher.start(group));
        } catch (BoundedChars.BudgetExceeded | StackOverflowError e) {
            return Found.none(
                    "regex "
                            + ByteText.display(rule.tag())
                            + " gave up after "
                            + REGEX_STEPS
                            + " steps");
        }
    }

    private Found bounded(ByteBuf buf, int from, int length) {
        if (length > ValueRule.MAX_VALUE_BYTES) {
            return Found.none("the value is longer than " + ValueRule.MAX_VALUE_BYTES + " bytes");
        }
        return Found.of(ByteBufUtil.getBytes(buf, from, length));
    }

    private String where() {
        return rule.location().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The first index of {@code needle} within {@code [from, end)}, or -1. */
    static int indexOf(ByteBuf buf, int from, int end, byte[] needle) {
        if (needle.length == 0) {
            return from <= end ? from : -1;
        }
        int lastStart = end - needle.length;
        int at = from;
        while (at <= lastStart) {
            int first = buf.indexOf(at, lastStart + 1, needle[0]);
            if (first < 0) {
                return -1;
            }
            boolean same = true;
            for (int i = 1; i < needle.length && same; i++) {
                same = buf.getByte(first + i) == needle[i];
            }
            if (same) {
                return first;
            }
            at = first + 1;
        }
        return -1;
    }
}
