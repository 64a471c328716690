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
 */
public record Profile(
        Path source,
        Target target,
        boolean keepAlive,
        RequestSpec request,
        ResponseSpec response,
        List<ParameterSpec> parameters,
        Optional<TlsSpec> tls) {

    public Profile {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(tls, "tls");
    }

    /** A plain TCP profile. */
    public Profile(
            Path source,
            Target target,
            boolean keepAlive,
            RequestSpec request,
            ResponseSpec response,
            List<ParameterSpec> parameters) {
        this(source, target, keepAlive, request, response, parameters, Optional.empty());
    }

    /** The display name used in reports: the file name, or {@code host:port} without a file. */
    public String displayName() {
        return source == null ? target.toString() : source.getFileName().toString();
    }

    public Profile withTarget(Target newTarget) {
        return new Profile(source, newTarget, keepAlive, request, response, parameters, tls);
    }

    public Profile withKeepAlive(boolean newKeepAlive) {
        return new Profile(source, target, newKeepAlive, request, response, parameters, tls);
    }

    public Profile withTls(Optional<TlsSpec> newTls) {
        return new Profile(source, target, keepAlive, request, response, parameters, newTls);
    }
}
