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
 */
public record NamedRequest(
        String name, int line, int weight, RequestSpec request, ResponseSpec response) {
    public NamedRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        if (weight < 1) {
            throw new IllegalArgumentException("weight must be at least 1");
        }
    }
}
