package io.tcpload.runner.slo;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One pass criterion, {@code METRIC OP VALUE}: {@code p99 < 250ms}, {@code successRatio >= 0.99},
 * {@code errorRatio <= 0.01}, {@code tps >= 1000}, or the same for one named request, {@code
 * p99{request=transfer} < 200ms}. Immutable; {@link #parse} is pure.
 *
 * <p>Grammar (blanks, spaces or tabs, between the parts are optional; the operator's CRD pattern,
 * {@code ThresholdSyntax.PATTERN}, accepts the same). One grammar and one parser for the operator's
 * {@code spec.thresholds} and the runner's {@code --search} SLO:
 *
 * <pre>
 * threshold := metric [selector] op number [unit]
 * selector  := {request=NAME}                                            (NAME: letters, digits,
 *                                                                         '-', '_', '.')
 * metric    := p50 | p75 | p90 | p99 | p99.9 | p99.99 | mean | max      (latency: unit us, ms or s;
 *                                                                         none means ms)
 *            | successRatio | errorRatio                                 (0 to 1, no unit)
 *            | tps                                                       (responses per second)
 * op        := &lt; | &lt;= | &gt; | &gt;=
 * </pre>
 *
 * @param text the threshold as written, for messages
 * @param metric what is compared
 * @param operator how
 * @param limit the bound, in the metric's unit (milliseconds for latencies)
 * @param request the named request the threshold is about, or empty for the whole test
 */
public record Threshold(
        String text, Metric metric, Operator operator, double limit, Optional<String> request) {

    private static final Pattern SYNTAX =
            Pattern.compile(
                    "[ \\t]*([A-Za-z][A-Za-z0-9.]*)(?:\\{request=([-_.A-Za-z0-9]+)\\})?[ \\t]*"
                            + "(<=|>=|<|>)[ \\t]*([0-9]+(?:\\.[0-9]+)?)[ \\t]*([a-z]*)[ \\t]*");

    private static final Map<String, Double> LATENCY_UNITS_MS =
            Map.of("", 1.0, "ms", 1.0, "us", 0.001, "s", 1000.0);

    /** A threshold on the whole test. */
    public Threshold(String text, Metric metric, Operator operator, double limit) {
        this(text, metric, operator, limit, Optional.empty());
    }

    /** The figures a threshold can bound. */
    public enum Metric {
        P50("p50", true),
        P75("p75", true),
        P90("p90", true),
        P99("p99", true),
        P999("p99.9", true),
        P9999("p99.99", true),
        MEAN("mean", true),
        MAX("max", true),
        SUCCESS_RATIO("successRatio", false),
        ERROR_RATIO("errorRatio", false),
        TPS("tps", false);

        private final String written;
        private final boolean latency;

        Metric(String written, boolean latency) {
            this.written = written;
            this.latency = latency;
        }

        /** The metric's name in thresholds. */
        public String written() {
            return written;
        }

        /** Whether it is a latency, in milliseconds. */
        public boolean latency() {
            return latency;
        }

        /** Whether it is a ratio, from 0 to 1. */
        public boolean ratio() {
            return this == SUCCESS_RATIO || this == ERROR_RATIO;
        }

        /** The metric written {@code name} (any case), or null. */
        public static Metric named(String name) {
            for (Metric metric : values()) {
                if (metric.written.equalsIgnoreCase(name)) {
                    return metric;
                }
            }
            return null;
        }
    }

    /** A comparison. */
    public enum Operator {
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        /** Whether {@code value OP limit} holds. */
        public boolean holds(double value, double limit) {
            return switch (this) {
                case LT -> value < limit;
                case LE -> value <= limit;
                case GT -> value > limit;
                case GE -> value >= limit;
            };
        }

        static Operator of(String symbol) {
            for (Operator operator : values()) {
                if (operator.symbol.equals(symbol)) {
                    return operator;
                }
            }
            throw new IllegalStateException(symbol);
        }
    }

    /**
     * A threshold that did not hold, with the figure measured, or one that could not be judged
     * ({@code unmeasured} says why, NaN measured): the one shape of a miss for a runner's objective
     * and a test's thresholds.
     */
    public record Miss(Threshold threshold, double measured, String unmeasured) {
        public Miss(Threshold threshold, double measured) {
            this(threshold, measured, null);
        }

        /** {@code p99 < 50ms: measured 61.2ms}, or {@code p99 < 50ms: no responses to measure}. */
        public String message() {
            if (unmeasured != null) {
                return threshold.text() + ": " + unmeasured;
            }
            return threshold.text()
                    + ": measured "
                    + String.format(Locale.ROOT, "%.4g", measured)
                    + (threshold.metric().latency() ? "ms" : "");
        }
    }

    /**
     * This threshold judged on {@code measured}, a figure of {@code responses} complete responses
     * out of {@code attempts}: its miss, or empty when it held.
     */
    public Optional<Miss> judge(double measured, long responses, long attempts) {
        Optional<String> unmeasurable = unmeasurable(responses, attempts);
        if (unmeasurable.isPresent()) {
            return Optional.of(new Miss(this, Double.NaN, unmeasurable.get()));
        }
        return operator.holds(measured, limit)
                ? Optional.empty()
                : Optional.of(new Miss(this, measured));
    }

    /**
     * Why this threshold cannot be judged on a result of {@code responses} complete responses out
     * of {@code attempts} (responses plus socket errors), or empty when it can. The latency of no
     * responses, or a ratio of no attempts, is not a figure: the report shows an empty histogram's
     * and an empty division's 0, which would pass {@code p99 < 250ms} against a target that never
     * answered. Such a threshold is missed, never passed. A rate of nothing is a figure (0/s).
     */
    public Optional<String> unmeasurable(long responses, long attempts) {
        if (metric.latency() && responses == 0) {
            return Optional.of("no responses to measure");
        }
        if (metric.ratio() && attempts == 0) {
            return Optional.of("no requests to measure");
        }
        return Optional.empty();
    }

    /**
     * Parses one threshold.
     *
     * @throws IllegalArgumentException with a sentence saying what is wrong and what is expected
     */
    public static Threshold parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("is empty; write it as 'p99 < 250ms'");
        }
        Matcher matcher = SYNTAX.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(
                    "'"
                            + text
                            + "' is not METRIC OP VALUE, such as 'p99 < 250ms', 'successRatio >="
                            + " 0.99' or 'tps >= 1000'");
        }
        Metric metric = Metric.named(matcher.group(1));
        if (metric == null) {
            throw new IllegalArgumentException(
                    "'"
                            + text
                            + "': unknown metric '"
                            + matcher.group(1)
                            + "'; use p50, p75, p90, p99, p99.9, p99.99, mean, max, successRatio,"
                            + " errorRatio or tps");
        }
        double number = Double.parseDouble(matcher.group(4));
        String unit = matcher.group(5).toLowerCase(Locale.ROOT);
        double limit;
        if (metric.latency()) {
            Double scale = LATENCY_UNITS_MS.get(unit);
            if (scale == null) {
                throw new IllegalArgumentException(
                        "'" + text + "': latency unit '" + unit + "' is not us, ms or s");
            }
            limit = number * scale;
        } else if (!unit.isEmpty()) {
            throw new IllegalArgumentException(
                    "'" + text + "': " + metric.written() + " takes a plain number, no unit");
        } else {
            limit = number;
        }
        if (metric.ratio() && limit > 1) {
            throw new IllegalArgumentException(
                    "'" + text + "': a ratio is from 0 to 1 (0.99 means 99%)");
        }
        return new Threshold(
                text.trim(),
                metric,
                Operator.of(matcher.group(3)),
                limit,
                Optional.ofNullable(matcher.group(2)));
    }
}
