package io.tcpload.runner.format;

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
        String t = text.trim().toLowerCase(Locale.ROOT);
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
        if (value == 0) {
            throw new IllegalArgumentException(flag + ": '" + text + "' must be positive");
        }
        if (value > Long.MAX_VALUE / unitMs) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is too large");
        }
        return value * unitMs;
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
