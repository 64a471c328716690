package io.tcpload.runner.stats;

import io.tcpload.runner.stats.RunSummary.AddressCount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Responses and socket errors per address of the target, by the number the engine gave the address
 * (0, 1, ... in the order the addresses were first seen).
 *
 * <p>Threading: single writer, like {@link LoopStats}; the collector moves a loop's counts out on
 * that loop.
 */
public final class AddressCounts {
    private long[] requests = new long[1];
    private long[] errors = new long[1];
    private int size;

    /** One complete response from address {@code id}. */
    public void addRequest(int id) {
        ensure(id);
        requests[id]++;
    }

    /** One socket error on a connection to address {@code id}. */
    public void addError(int id) {
        ensure(id);
        errors[id]++;
    }

    /** Adds everything here to {@code target} and starts again from nothing. */
    public void moveTo(AddressCounts target) {
        for (int id = 0; id < size; id++) {
            if (requests[id] != 0 || errors[id] != 0) {
                target.ensure(id);
                target.requests[id] += requests[id];
                target.errors[id] += errors[id];
            }
        }
        Arrays.fill(requests, 0, size, 0);
        Arrays.fill(errors, 0, size, 0);
    }

    /**
     * The counts of every named address, in the order of {@code names}, which names address {@code
     * i} at index {@code i}; addresses without a name are left out.
     */
    public List<AddressCount> named(List<String> names) {
        List<AddressCount> list = new ArrayList<>(names.size());
        for (int id = 0; id < names.size(); id++) {
            list.add(
                    new AddressCount(
                            names.get(id),
                            id < size ? requests[id] : 0,
                            id < size ? errors[id] : 0));
        }
        return list;
    }

    private void ensure(int id) {
        if (id >= requests.length) {
            // A new address of the target: rare, so the arrays may grow on the hot path.
            int length = Math.max(id + 1, 2 * requests.length);
            requests = Arrays.copyOf(requests, length);
            errors = Arrays.copyOf(errors, length);
        }
        size = Math.max(size, id + 1);
    }
}
