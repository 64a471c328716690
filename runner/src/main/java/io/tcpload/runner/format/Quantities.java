package io.tcpload.runner.format;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Parses the quantities of wrk's and wrktcp's flags: counts with SI suffixes ({@code 1k} = 1000)
 * and durations ({@code 10}, {@code 10s}, {@code 500ms}, {@code 2m}, {@code 1h}). Pure.
 */
public final class Quantities {
    private Quantities() {}

    /**
     * A count such as {@code 100}, {@code 1k} or {@code 2M} (powers of 1000, case-insensitive).
     *
     * @throws IllegalArgumentException naming the flag and the text when it is not one
     */
    public static long count(String flag, String text) {
        String t = text.trim();
        long multiplier = t.isEmpty() ? 1 : (long) siMultiplier(t.charAt(t.length() - 1));
        if (multiplier != 1) {
            t = t.substring(0, t.length() - 1);
        }
        long value = parseDigits(flag, text, t);
        if (value > Long.MAX_VALUE / multiplier) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is too large");
        }
        return value * multiplier;
    }

    /**
     * The factor of an SI suffix as wrk writes them: {@code k} 1000, {@code m} a million, {@code g}
     * a billion (either case); 1 for any other character, which is then not a suffix.
     */
    public static double siMultiplier(char last) {
        switch (Character.toLowerCase(last)) {
            case 'k':
                return 1e3;
            case 'm':
                return 1e6;
            case 'g':
                return 1e9;
            default:
                return 1;
        }
    }

    /** A count that must fit an int and be at least {@code min}. */
    public static int count(String flag, String text, int min) {
        long value = count(flag, text);
        if (value < min || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    flag + ": '" + text + "' must be between " + min + " and " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    /**
     * A duration in milliseconds: a number of seconds, or a number with {@code ms}, {@code s},
     * {@code m} or {@code h}. Must be positive.
     */
    public static long durationMs(String flag, String text) {
        long ms = signedDurationMs(flag, text);
        if (ms <= 0) {
            throw new IllegalArgumentException(flag + ": '" + text + "' must be positive");
        }
        return ms;
    }

    /**
     * As {@link #durationMs}, but zero and a leading {@code -} are read too, so that a caller can
     * say what the value must be instead of calling it not a number.
     */
    public static long signedDurationMs(String flag, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        boolean negative = t.startsWith("-");
        if (negative) {
            t = t.substring(1);
        }
        long unitMs;
        String digits;
        if (t.endsWith("ms")) {
            unitMs = 1;
            digits = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            unitMs = 1_000;
            digits = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            unitMs = 60_000;
            digits = t.substring(0, t.length() - 1);
        } else if (t.endsWith("h")) {
            unitMs = 3_600_000;
            digits = t.substring(0, t.length() - 1);
        } else {
            unitMs = 1_000;
            digits = t;
        }
        long value = parseDigits(flag, text, digits);
        if (value > Long.MAX_VALUE / unitMs) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is too large");
        }
        return negative ? -value * unitMs : value * unitMs;
    }

    /**
     * A count as {@link #count(String, String)} reads it, and a leading {@code -} too, so that a
     * caller can say what the value must be instead of calling it not a number.
     */
    public static long signedCount(String flag, String text) {
        String t = text.trim();
        return t.startsWith("-") ? -count(flag, t.substring(1)) : count(flag, t);
    }

    /**
     * A duration as {@link #signedDurationMs} reads it back exactly: in the largest of {@code h},
     * {@code m}, {@code s} and {@code ms} that holds it whole ({@code 5m}, {@code 90s}, {@code
     * 1500ms}).
     */
    public static String formatDurationMs(long ms) {
        if (ms != 0 && ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms != 0 && ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms != 0 && ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }

    /**
     * A rate as a plain decimal ({@code 2500}, {@code 0.5}) that parses back to the same double:
     * the rate parser takes no exponent.
     */
    public static String formatRate(double rate) {
        BigDecimal exact = BigDecimal.valueOf(rate).stripTrailingZeros();
        return exact.scale() < 0 ? exact.setScale(0).toPlainString() : exact.toPlainString();
    }

    private static long parseDigits(String flag, String original, String digits) {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException(
                    flag + ": '" + original + "' is not a number (examples: 10, 1k, 10s, 500ms)");
        }
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + original + "' is too large", e);
        }
    }
}
