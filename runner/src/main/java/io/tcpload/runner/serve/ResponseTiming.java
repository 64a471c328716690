package io.tcpload.runner.serve;

/**
 * When the demo server answers a request: after a fixed delay, and, during a stall, not before the
 * stall ends. Stalls last {@code stallForMs} and begin every {@code stallEveryMs} from {@code
 * originNs}. Pure and immutable.
 */
record ResponseTiming(long delayMs, long stallEveryMs, long stallForMs, long originNs) {

    static ResponseTiming of(ServeOptions options, long originNs) {
        return new ResponseTiming(
                options.delayMs(), options.stallEveryMs(), options.stallForMs(), originNs);
    }

    /** Whether every response goes out as soon as its request is read. */
    boolean immediate() {
        return delayMs == 0 && (stallEveryMs == 0 || stallForMs == 0);
    }

    /** How long a request read at {@code nowNs} waits for its response, in nanoseconds. */
    long waitNs(long nowNs) {
        long waitNs = delayMs * 1_000_000L;
        if (stallEveryMs > 0 && stallForMs > 0) {
            long periodNs = stallEveryMs * 1_000_000L;
            long phaseNs = Math.floorMod(nowNs - originNs, periodNs);
            long stallNs = stallForMs * 1_000_000L;
            if (phaseNs < stallNs) {
                waitNs = Math.max(waitNs, stallNs - phaseNs);
            }
        }
        return waitNs;
    }
}
