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

    /** By place in the order's weights, the request's index: the mix without its sign-ons. */
    private final int[] ordered;

    /** The indexes of the sign-on requests, in file order; empty for none. */
    private final int[] signOns;

    /** The variables the responses extract ({@code Profile.variables()}). */
    private final List<String> variables;

    /** The variables some sign-on's response extracts. */
    private final java.util.Set<String> signOnVariables;

    private RequestMix(
            List<RequestTemplate> templates,
            List<String> names,
            WeightedOrder order,
            int[] ordered,
            int[] signOns,
            List<String> variables,
            java.util.Set<String> signOnVariables) {
        this.templates = List.copyOf(templates);
        this.names = List.copyOf(names);
        this.order = order;
        this.ordered = ordered;
        this.signOns = signOns;
        this.variables = List.copyOf(variables);
        this.signOnVariables = java.util.Set.copyOf(signOnVariables);
    }

    /** A run of one request, unnamed. */
    public static RequestMix single(RequestTemplate template) {
        return single(template, List.of());
    }

    private static RequestMix single(RequestTemplate template, List<String> variables) {
        return new RequestMix(
                List.of(template),
                List.of(),
                null,
                new int[] {0},
                new int[0],
                variables,
                java.util.Set.of());
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
            return single(templates.get(0), profile.variables());
        }
        List<NamedRequest> mix = profile.mix();
        int[] ordered =
                java.util.stream.IntStream.range(0, mix.size())
                        .filter(i -> !mix.get(i).signOn())
                        .toArray();
        int[] signOns =
                java.util.stream.IntStream.range(0, mix.size())
                        .filter(i -> mix.get(i).signOn())
                        .toArray();
        int[] weights = java.util.Arrays.stream(ordered).map(i -> mix.get(i).weight()).toArray();
        WeightedOrder order =
                WeightedOrder.of(
                        weights, RunnerLimits.REQUEST_NAMES_MAX * RunnerLimits.REQUEST_WEIGHT_MAX);
        java.util.Set<String> signOnVariables = new java.util.HashSet<>();
        for (int i : signOns) {
            mix.get(i).response().extracts().forEach(rule -> signOnVariables.add(rule.name()));
        }
        return new RequestMix(
                templates,
                mix.stream().map(NamedRequest::name).toList(),
                order,
                ordered,
                signOns,
                profile.variables(),
                signOnVariables);
    }

    /** The sign-on requests' indexes, in file order: sent on each new connection first. */
    public int[] signOns() {
        return signOns.clone();
    }

    /** Whether request {@code index} is a sign-on. */
    public boolean isSignOn(int index) {
        for (int signOn : signOns) {
            if (signOn == index) {
                return true;
            }
        }
        return false;
    }

    /** The variables the responses extract, by index; empty for none. */
    public List<String> variables() {
        return variables;
    }

    /** Whether a sign-on's response sets {@code variable}. */
    public boolean setBySignOn(String variable) {
        return signOnVariables.contains(variable);
    }

    /** The index of the request a cursor of {@link #cursor} gives next. */
    public int next(WeightedOrder.Cursor cursor) {
        return ordered[cursor.next()];
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
