package io.tcpload.runner.profile;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A validated load profile: where to connect, how to build each request, how to frame and judge
 * each response, and the parameters the templates refer to. Immutable; produced by {@link
 * ProfileLoader} from a wrktcp INI file, or built directly (wrk-style URL mode).
 *
 * @param source the INI file it came from, or {@code null} when built from command-line flags
 * @param target the host and port to connect to
 * @param keepAlive whether a connection carries many requests ({@code keepalive = true}); wrktcp
 *     opens a new connection for every request, which stays the default
 * @param request the request templates and length field
 * @param response the response framing and the success rule
 * @param parameters the {@code [parameters]} entries, in file order
 * @param tls how connections speak TLS ({@code tls = true}, an {@code https://} URL); empty for
 *     plain TCP
 * @param mix the named requests of a transaction mix ({@code [request.NAME]} sections), in file
 *     order; empty for a profile of one plain {@code [request]}. In a mix {@code request} is the
 *     first named request's, and {@code response} is {@code [response]}, whose framing every
 *     response shares
 */
public record Profile(
        Path source,
        Target target,
        boolean keepAlive,
        RequestSpec request,
        ResponseSpec response,
        List<ParameterSpec> parameters,
        Optional<TlsSpec> tls,
        List<NamedRequest> mix) {

    public Profile {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(tls, "tls");
        mix = List.copyOf(mix);
    }

    /** A plain TCP profile of one plain {@code [request]}. */
    public Profile(
            Path source,
            Target target,
            boolean keepAlive,
            RequestSpec request,
            ResponseSpec response,
            List<ParameterSpec> parameters) {
        this(source, target, keepAlive, request, response, parameters, Optional.empty(), List.of());
    }

    /** A profile of one plain {@code [request]}. */
    public Profile(
            Path source,
            Target target,
            boolean keepAlive,
            RequestSpec request,
            ResponseSpec response,
            List<ParameterSpec> parameters,
            Optional<TlsSpec> tls) {
        this(source, target, keepAlive, request, response, parameters, tls, List.of());
    }

    /** A plain TCP profile. */
    public Profile(
            Path source,
            Target target,
            boolean keepAlive,
            RequestSpec request,
            ResponseSpec response,
            List<ParameterSpec> parameters,
            List<NamedRequest> mix) {
        this(source, target, keepAlive, request, response, parameters, Optional.empty(), mix);
    }

    /**
     * The variables its responses extract ({@code rsp_extract}), each once, in the order first
     * written: {@code [response]}'s, then each named request's.
     */
    public List<String> variables() {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        response.extracts().forEach(rule -> names.add(rule.name()));
        for (NamedRequest named : mix) {
            named.response().extracts().forEach(rule -> names.add(rule.name()));
        }
        return List.copyOf(names);
    }

    /** Whether some request is a sign-on, sent on each new connection before the mix. */
    public boolean hasSignOn() {
        return mix.stream().anyMatch(NamedRequest::signOn);
    }

    /** Whether the profile is a transaction mix of named requests. */
    public boolean isMix() {
        return !mix.isEmpty();
    }

    /** The display name used in reports: the file name, or {@code host:port} without a file. */
    public String displayName() {
        return source == null ? target.toString() : source.getFileName().toString();
    }

    public Profile withTarget(Target newTarget) {
        return new Profile(source, newTarget, keepAlive, request, response, parameters, tls, mix);
    }

    public Profile withKeepAlive(boolean newKeepAlive) {
        return new Profile(source, target, newKeepAlive, request, response, parameters, tls, mix);
    }

    public Profile withTls(Optional<TlsSpec> newTls) {
        return new Profile(source, target, keepAlive, request, response, parameters, newTls, mix);
    }
}
