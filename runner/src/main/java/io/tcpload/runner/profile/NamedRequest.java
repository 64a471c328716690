package io.tcpload.runner.profile;

import java.util.Objects;

/**
 * One request of a transaction mix: a {@code [request.NAME]} section, with how its responses are
 * judged ({@code [response.NAME]}, or {@code [response]} when it has none).
 *
 * @param name the section's name, which also names the request in the report, the JSON result and
 *     the metrics
 * @param line the line of its {@code [request.NAME]} header
 * @param weight its share of the mix ({@code weight}, 1 when absent)
 * @param request how it is built
 * @param response how its responses are judged; the framing is always {@code [response]}'s
 * @param signOn {@code sign_on = true}: sent once on each new connection before the mix starts on
 *     it, outside the mix and the rate schedule
 */
public record NamedRequest(
        String name,
        int line,
        int weight,
        RequestSpec request,
        ResponseSpec response,
        boolean signOn) {

    /** A request of the mix itself, not a sign-on. */
    public NamedRequest(
            String name, int line, int weight, RequestSpec request, ResponseSpec response) {
        this(name, line, weight, request, response, false);
    }

    public NamedRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        if (weight < 1) {
            throw new IllegalArgumentException("weight must be at least 1");
        }
    }
}
