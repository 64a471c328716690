package io.tcpload.runner.template;

import io.tcpload.runner.contract.RunnerLimits;
import io.tcpload.runner.mix.WeightedOrder;
import io.tcpload.runner.profile.NamedRequest;
import io.tcpload.runner.profile.Profile;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/**
 * What a run sends: one compiled request, or the compiled requests of a transaction mix with their
 * names and the order each connection takes them in. Immutable and thread-safe, like its templates.
 */
public final class RequestMix {
    private final List<RequestTemplate> templates;
    private final List<String> names;

    /** The order of a mix; null for a single request. */
    private final WeightedOrder order;

    private RequestMix(List<RequestTemplate> templates, List<String> names, WeightedOrder order) {
        this.templates = List.copyOf(templates);
        this.names = List.copyOf(names);
        this.order = order;
    }

    /** A run of one request, unnamed. */
    public static RequestMix single(RequestTemplate template) {
        return new RequestMix(List.of(template), List.of(), null);
    }

    /**
     * Compiles a profile's requests: a mix when it has named requests, else its one request.
     *
     * @throws IllegalArgumentException as {@link RequestTemplate#compileAll}, and when the weights
     *     are beyond the runner's limits
     */
    public static RequestMix compile(
            Profile profile, RunnerSlice slice, Function<String, String> environment) {
        List<RequestTemplate> templates =
                RequestTemplate.compileAll(profile, slice, Clock.systemDefaultZone(), environment);
        if (!profile.isMix()) {
            return single(templates.get(0));
        }
        List<NamedRequest> mix = profile.mix();
        int[] weights = mix.stream().mapToInt(NamedRequest::weight).toArray();
        WeightedOrder order =
                WeightedOrder.of(
                        weights, RunnerLimits.REQUEST_NAMES_MAX * RunnerLimits.REQUEST_WEIGHT_MAX);
        return new RequestMix(templates, mix.stream().map(NamedRequest::name).toList(), order);
    }

    /** Whether this is a mix of named requests. */
    public boolean isMix() {
        return order != null;
    }

    /** The requests: 1 for a single request. */
    public int size() {
        return templates.size();
    }

    /** Request {@code index}'s template. */
    public RequestTemplate template(int index) {
        return templates.get(index);
    }

    /** The names of a mix's requests by index; empty for a single request. */
    public List<String> names() {
        return names;
    }

    /**
     * The walk through the mix of the connection with global index {@code globalIndex}; null for a
     * single request.
     */
    public WeightedOrder.Cursor cursor(long globalIndex) {
        return order == null ? null : order.cursor(globalIndex);
    }
}
