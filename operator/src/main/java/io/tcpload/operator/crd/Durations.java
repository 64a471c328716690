package io.tcpload.operator.crd;

/** The duration syntax of the spec, the runner's: {@code 10}, {@code 10s}, {@code 500ms}, ... */
public final class Durations {
    /** A whole number with an optional unit; a bare number is seconds, as for the runner's -d. */
    public static final String PATTERN = "^[0-9]+(ms|s|m|h)?$";

    /** As {@link #PATTERN}, above zero: the CRD's pattern for the spec's durations. */
    public static final String POSITIVE_PATTERN = "^0*[1-9][0-9]*(ms|s|m|h)?$";

    private Durations() {}
}
