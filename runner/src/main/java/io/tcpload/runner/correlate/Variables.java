package io.tcpload.runner.correlate;

import java.util.Arrays;
import java.util.List;

/**
 * One connection's extracted values, by the profile's variable index ({@code Profile.variables()}).
 * A value is set by a response that carried it and unset by one that did not, and every value is
 * dropped when the connection is opened again: a request never goes out with an empty or stale
 * value.
 *
 * <p>Not thread-safe: confined to the connection's event loop.
 */
public final class Variables {
    private final List<String> names;
    private final byte[][] values;

    public Variables(List<String> names) {
        this.names = List.copyOf(names);
        this.values = new byte[names.size()][];
    }

    /** The variables' names, by index. */
    public List<String> names() {
        return names;
    }

    /** Variable {@code index}'s value, or null while it is unset. */
    public byte[] get(int index) {
        return values[index];
    }

    /** Sets variable {@code index}; {@code value} null unsets it. */
    public void set(int index, byte[] value) {
        values[index] = value;
    }

    /** Unsets every variable (a new connection). */
    public void clear() {
        Arrays.fill(values, null);
    }
}
