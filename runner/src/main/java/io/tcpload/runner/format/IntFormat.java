package io.tcpload.runner.format;

/**
 * A C printf format for one integer, as COUNTER and CONNECTID use ({@code %08ld}, {@code A%5d-},
 * {@code %x}): literal text around exactly one conversion. Rendering writes ASCII bytes without
 * creating objects.
 */
public final class IntFormat {
    private IntFormat() {}

    /**
     * Parses a printf format.
     *
     * @throws IllegalArgumentException with a plain sentence when it is not exactly one integer
     *     conversion with literal text around it
     */
    public static IntFormat parse(String format) {
        throw new UnsupportedOperationException("not yet");
    }
}
