package io.tcpload.runner.profile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Strict readers for entry values. Unlike wrktcp's {@code atol}, junk is an error, never 0. Each
 * reader reports its own problem and returns empty when the value is unusable.
 */
final class Values {
    private static final Pattern INTEGER = Pattern.compile("[-+]?[0-9]+");
    private static final int MAX_QUOTED = 40;

    private Values() {}

    /** A whole number in {@code min..max}. */
    static OptionalLong integer(IniEntry entry, long min, long max, Problems problems) {
        OptionalLong value = parseLong(entry.value());
        if (value.isEmpty() || value.getAsLong() < min || value.getAsLong() > max) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "must be a whole number "
                            + range(min, max)
                            + ", not "
                            + quote(entry.value())
                            + ".");
            return OptionalLong.empty();
        }
        return value;
    }

    /** The entry's whole number in {@code min..max}, or {@code fallback} when absent or wrong. */
    static long integerOr(
            Optional<IniEntry> entry, long min, long max, long fallback, Problems problems) {
        return entry.isEmpty()
                ? fallback
                : integer(entry.get(), min, max, problems).orElse(fallback);
    }

    /** Parses an optionally signed decimal integer; empty when it is not one or does not fit. */
    static OptionalLong parseLong(String text) {
        if (!INTEGER.matcher(text).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException tooLarge) {
            return OptionalLong.empty();
        }
    }

    /** One of a fixed set of words, exact and case-sensitive. */
    static <T> Optional<T> choice(IniEntry entry, Map<String, T> choices, Problems problems) {
        T value = choices.get(entry.value());
        if (value == null) {
            List<String> names = choices.keySet().stream().sorted().toList();
            problems.error(
                    entry.line(),
                    entry.key(),
                    "must be "
                            + String.join(" or ", names)
                            + ", not "
                            + quote(entry.value())
                            + ".");
        }
        return Optional.ofNullable(value);
    }

    /** The text in single quotes, shortened when long, for messages. */
    static String quote(String text) {
        return "'" + shorten(text) + "'";
    }

    /** The text shortened when long, with line breaks and tabs made visible, for messages. */
    static String shorten(String text) {
        String shown = text;
        if (text.length() > MAX_QUOTED) {
            // Never cut a character in two.
            int end =
                    Character.isHighSurrogate(text.charAt(MAX_QUOTED - 1))
                            ? MAX_QUOTED - 1
                            : MAX_QUOTED;
            shown = text.substring(0, end) + "...";
        }
        return shown.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /** The message as a sentence: ending in a full stop. */
    static String sentence(String message) {
        return message.endsWith(".") || message.endsWith("?") ? message : message + ".";
    }

    private static String range(long min, long max) {
        if (max >= Integer.MAX_VALUE) {
            return min == 1 ? "above 0" : "of at least " + min;
        }
        return "from " + min + " to " + max;
    }
}
