package io.tcpload.runner.format;

/**
 * A C strftime format ({@code %Y%m%d %H:%M:%S}), compiled once and rendered in the process time
 * zone.
 */
public final class Strftime {
    private Strftime() {}

    /**
     * Compiles a strftime format.
     *
     * @throws IllegalArgumentException with a plain sentence for an unknown conversion
     */
    public static Strftime compile(String format) {
        throw new UnsupportedOperationException("not yet");
    }
}
