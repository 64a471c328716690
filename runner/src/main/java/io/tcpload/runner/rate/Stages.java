package io.tcpload.runner.rate;

import io.tcpload.runner.format.Quantities;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code --stages} ({@code "30s:1000,1m:5000,30s:5000"}) and rates with SI suffixes. Pure
 * and stateless.
 */
public final class Stages {
    /** More stages than anyone writes by hand; bounds the work a hostile argument can cause. */
    static final int MAX_STAGES = 10_000;

    private static final String FLAG = "--stages";
    private static final String DURATION_EXAMPLES = "examples: 500ms, 10s, 2m, 1h";
    private static final String RATE_EXAMPLES = "examples: 1000, 5k, 2.5k, 0";

    private Stages() {}

    /**
     * The stages of a comma-separated list of {@code DURATION:RATE}; a duration is a whole number
     * with {@code ms}, {@code s}, {@code m} or {@code h} (plain numbers are seconds, as {@code
     * -d}), a rate is sends per second with an optional {@code k}, {@code M} or {@code G}.
     *
     * @throws IllegalArgumentException naming the stage (from 1) and the part that is wrong
     */
    public static List<Stage> parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(
                    FLAG + ": no stage given (expected DURATION:RATE,..., e.g. 30s:1000,1m:5000)");
        }
        String[] parts = text.split(",", -1);
        if (parts.length > MAX_STAGES) {
            throw new IllegalArgumentException(
                    FLAG + ": " + parts.length + " stages; at most " + MAX_STAGES + " are allowed");
        }
        List<Stage> stages = new ArrayList<>(parts.length);
        long totalMs = 0;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            String where = FLAG + ": stage " + (i + 1);
            if (part.isEmpty()) {
                throw new IllegalArgumentException(where + " is empty");
            }
            int colon = part.indexOf(':');
            if (colon < 0 || part.indexOf(':', colon + 1) >= 0) {
                throw new IllegalArgumentException(
                        where + " '" + part + "' is not DURATION:RATE (e.g. 30s:1000)");
            }
            long durationMs = durationMs(where, part.substring(0, colon).trim());
            double rate = rate(where + " rate", part.substring(colon + 1).trim());
            if (totalMs > Long.MAX_VALUE / 1_000_000L - durationMs) {
                throw new IllegalArgumentException(where + ": the stages last too long in all");
            }
            totalMs += durationMs;
            stages.add(new Stage(durationMs, rate));
        }
        return List.copyOf(stages);
    }

    /**
     * A rate: a non-negative decimal number of sends per second, optionally followed by {@code k}
     * (1000), {@code M} or {@code G} (case-insensitive), at most {@link RateSchedule#MAX_RATE}.
     *
     * @param what names the value in the message, e.g. {@code "-R"}
     * @throws IllegalArgumentException when it is not one
     */
    public static double rate(String what, String text) {
        String t = text.trim();
        double multiplier = t.isEmpty() ? 1 : Quantities.siMultiplier(t.charAt(t.length() - 1));
        if (multiplier != 1) {
            t = t.substring(0, t.length() - 1);
        }
        if (t.startsWith("-")) {
            throw new IllegalArgumentException(what + " '" + text + "' must not be negative");
        }
        if (!isDecimal(t)) {
            throw new IllegalArgumentException(
                    what + " '" + text + "' is not a rate (" + RATE_EXAMPLES + ")");
        }
        double value = Double.parseDouble(t) * multiplier;
        if (value > RateSchedule.MAX_RATE) {
            throw new IllegalArgumentException(
                    what
                            + " '"
                            + text
                            + "' is above the highest rate, "
                            + (long) RateSchedule.MAX_RATE
                            + " per second");
        }
        return value;
    }

    private static long durationMs(String where, String text) {
        try {
            return Quantities.durationMs(where, text);
        } catch (IllegalArgumentException e) {
            String reason =
                    e.getMessage().endsWith("must be positive")
                            ? "must be positive"
                            : "is not a duration (" + DURATION_EXAMPLES + ")";
            throw new IllegalArgumentException(where + " duration '" + text + "' " + reason, e);
        }
    }

    /** Digits with at most one decimal point and at least one digit; no sign, no exponent. */
    private static boolean isDecimal(String t) {
        if (t.isEmpty() || t.length() > 30) {
            return false;
        }
        boolean digit = false;
        boolean point = false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c == '.' && !point) {
                point = true;
            } else {
                return false;
            }
        }
        return digit;
    }
}
