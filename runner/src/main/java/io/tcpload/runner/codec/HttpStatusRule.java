package io.tcpload.runner.codec;

import java.util.List;

/**
 * {@code rsp_http_status}: the HTTP status must match one of the patterns, three characters each,
 * digits or {@code x} for any digit ({@code 200}, {@code 2xx}). No patterns accept every status.
 * Immutable and thread-safe; matching is a table look-up.
 */
public final class HttpStatusRule {
    private final boolean[] accepted = new boolean[1000];

    public HttpStatusRule(List<String> patterns) {
        for (String pattern : patterns) {
            if (!pattern.matches("[0-9xX]{3}")) {
                throw new IllegalArgumentException(
                        "HTTP status pattern '" + pattern + "' is not three digits or x");
            }
        }
        for (int code = 0; code < accepted.length; code++) {
            accepted[code] = patterns.isEmpty() || matchesAny(patterns, code);
        }
    }

    public boolean accepts(int statusCode) {
        return statusCode >= 0 && statusCode < accepted.length && accepted[statusCode];
    }

    private static boolean matchesAny(List<String> patterns, int code) {
        // The code's three digits by arithmetic: this runs for all 1,000 codes at every start,
        // where String.format would cost a run a few milliseconds of CPU.
        char[] digits = {
            (char) ('0' + code / 100), (char) ('0' + code / 10 % 10), (char) ('0' + code % 10)
        };
        for (String pattern : patterns) {
            boolean match = true;
            for (int i = 0; i < 3 && match; i++) {
                char p = pattern.charAt(i);
                match = p == 'x' || p == 'X' || p == digits[i];
            }
            if (match) {
                return true;
            }
        }
        return false;
    }
}
