package io.tcpload.runner.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Number formatting exactly as wrktcp prints it: two decimals and a unit suffix chosen by dividing
 * by the unit's scale while the value is at least 85% of that scale.
 *
 * <p>Decimals are rounded from the exact binary value of the double, ties to even, which is what
 * C's {@code printf("%.2f")} does; {@link String#format} rounds ties up from the shortest decimal
 * form and would print {@code 0.13} where wrktcp prints {@code 0.12}. Stateless and thread-safe.
 */
public final class Units {
    private static final String[] MICROS_UP = {"ms"};
    private static final String[] SECONDS_UP = {"m"};
    private static final String[] BINARY_UP = {"K", "M", "G", "T"};
    private static final String[] METRIC_UP = {"k", "M", "G", "T"};

    /** Below this share of the scale a value keeps its current unit. */
    private static final double SWITCH_SHARE = 0.85;

    private Units() {}

    /**
     * A duration given in microseconds: {@code us} or {@code ms} below one second, {@code s} or
     * {@code m} from one second on (as wrktcp, hours are never used).
     */
    public static String time(double micros) {
        if (micros >= 1_000_000.0) {
            return scaled(micros / 1_000_000.0, 60, "s", SECONDS_UP, 2);
        }
        return scaled(micros, 1000, "us", MICROS_UP, 2);
    }

    /** A byte count in powers of 1024, without the trailing {@code B} the caller prints. */
    public static String binary(double bytes) {
        return scaled(bytes, 1024, "", BINARY_UP, 2);
    }

    /** A plain quantity in powers of 1000 ({@code k}, {@code M}, ...), as the Req/Sec row uses. */
    public static String metric(double value) {
        return scaled(value, 1000, "", METRIC_UP, 2);
    }

    /**
     * The banner's duration: whole seconds or minutes with no decimals, as wrktcp (90 s prints
     * {@code 2m}). wrktcp only knew whole seconds; a shorter duration we accept prints in
     * milliseconds ({@code 500ms}) rather than as a misleading {@code 0s} or {@code 1s}.
     */
    public static String duration(long millis) {
        if (millis < 1000 && millis % 1000 != 0) {
            return millis + "ms";
        }
        return scaled(millis / 1000.0, 60, "s", SECONDS_UP, 0);
    }

    /** {@code %.2f} as C prints it. */
    static String fixed2(double value) {
        return fixed(value, 2);
    }

    /** {@code %.Nf} as C prints it: exact binary value, ties to even. */
    static String fixed(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            // Callers guard their divisions; this only keeps a bug from throwing mid-report.
            return Double.isNaN(value) ? "nan" : (value > 0 ? "inf" : "-inf");
        }
        return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String scaled(
            double value, double scale, String base, String[] larger, int decimals) {
        double amount = value;
        String unit = base;
        for (int i = 0; i < larger.length && amount >= scale * SWITCH_SHARE; i++) {
            amount /= scale;
            unit = larger[i];
        }
        return fixed(amount, decimals) + unit;
    }
}
