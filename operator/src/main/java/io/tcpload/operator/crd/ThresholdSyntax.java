package io.tcpload.operator.crd;

/**
 * The threshold grammar of {@code spec.thresholds} as one regular expression, the CRD's pattern for
 * each threshold, so that the API server refuses a malformed one at {@code kubectl apply}. It
 * accepts exactly what the one threshold parser ({@code io.tcpload.runner.slo.Threshold}) accepts,
 * which a test checks: the metric (any case), an optional {@code {request=NAME}} selector, the
 * operator, a number, and a latency unit on latencies only; a ratio is at most 1.
 *
 * <p>Written in the common subset of RE2 (the API server's engine) and {@code java.util.regex}: no
 * look-around, no back-references, blanks spelt out as {@code [ \t]}.
 */
public final class ThresholdSyntax {
    private static final String BLANKS = "[ \\t]*";

    /** {@code {request=transfer}}: a threshold on one named request. */
    public static final String SELECTOR = "(\\{request=[-_.A-Za-z0-9]+\\})?";

    private static final String OPERATOR = BLANKS + "(<=|>=|<|>)" + BLANKS;
    private static final String NUMBER = "[0-9]+(\\.[0-9]+)?";

    /** From 0 to 1: zeros with any fraction, or one with a zero fraction. */
    private static final String RATIO = "(0+(\\.[0-9]+)?|0*1(\\.0+)?)";

    private static final String LATENCY =
            "(?i:p50|p75|p90|p99|p99\\.9|p99\\.99|mean|max)"
                    + SELECTOR
                    + OPERATOR
                    + NUMBER
                    + BLANKS
                    + "(us|ms|s)?";
    private static final String RATIOS =
            "(?i:successRatio|errorRatio)" + SELECTOR + OPERATOR + RATIO;
    private static final String TPS = "(?i:tps)" + SELECTOR + OPERATOR + NUMBER;

    /** A whole threshold, blanks around it allowed. */
    public static final String PATTERN =
            "^" + BLANKS + "(" + LATENCY + "|" + RATIOS + "|" + TPS + ")" + BLANKS + "$";

    private ThresholdSyntax() {}
}
