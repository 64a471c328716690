package io.tcpload.runner.template;

import io.tcpload.runner.format.Strftime;
import java.time.Clock;
import java.time.ZoneId;

/**
 * The rendered bytes of one DATETIME parameter for the current wall-clock second, shared by every
 * connection and event loop. A new rendering is published through a volatile field at most once per
 * second per racing thread; readers never lock, and within a second they allocate nothing.
 */
final class DateTimeCache {
    private final Strftime format;
    private final Clock clock;
    private final ZoneId zone;
    private volatile Rendered current;

    private record Rendered(long epochSecond, byte[] bytes) {}

    DateTimeCache(Strftime format, Clock clock) {
        this.format = format;
        this.clock = clock;
        this.zone = clock.getZone();
        long now = epochSecond();
        this.current = new Rendered(now, format.render(now, zone));
    }

    /** The bytes for the current second. The array must not be modified. */
    byte[] now() {
        long now = epochSecond();
        Rendered rendered = current;
        if (rendered.epochSecond() != now) {
            // Two threads may both render a new second; either result is the same bytes.
            rendered = new Rendered(now, format.render(now, zone));
            current = rendered;
        }
        return rendered.bytes();
    }

    private long epochSecond() {
        return Math.floorDiv(clock.millis(), 1000L);
    }
}
