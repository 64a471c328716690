package io.tcpload.runner.cli;

import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.profile.TlsSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Builds the profile of a wrk-style run from a URL, headers, method and body. Pure.
 *
 * <p>An {@code https://} URL speaks TLS with every default (the system's trust store, the host
 * checked, sessions resumed), port 443 unless given. The request is HTTP/1.1 with wrk's head
 * ({@code Host} from the URL) plus the given headers; a body gets its {@code Content-Length}. A
 * response is a success when its status is 2xx or 3xx ({@link #SUCCESS_STATUSES}): the status is
 * all a URL run can judge, and a server answering 500 is not serving. wrk's {@code Non-2xx or 3xx
 * responses} line still counts the others.
 */
public final class UrlProfile {
    /**
     * The statuses that make a response of a URL run a success, as {@code rsp_http_status = 2xx,
     * 3xx} would in a profile.
     */
    public static final List<String> SUCCESS_STATUSES = List.of("2xx", "3xx");

    private UrlProfile() {}

    /**
     * @throws IllegalArgumentException with a plain sentence for an unusable URL or header
     */
    public static Profile build(String url, String method, List<String> headers, String body) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "'" + url + "' is not a valid URL: " + e.getReason());
        }
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        if (!https && !"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException(
                    "only http:// and https:// URLs are supported, got '" + url + "'");
        }
        int defaultPort = https ? 443 : 80;
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("'" + url + "' has no host");
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = uri.getPort() == -1 ? defaultPort : uri.getPort();
        String path =
                uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        if (!method.matches("[A-Za-z]+")) {
            throw new IllegalArgumentException("--method '" + method + "' is not an HTTP method");
        }
        Target target = new Target(host, port);
        StringBuilder head = new StringBuilder();
        head.append(method.toUpperCase(Locale.ROOT))
                .append(' ')
                .append(path)
                .append(" HTTP/1.1\r\n");
        boolean hasHost = false;
        boolean hasLength = false;
        for (String header : headers) {
            int colon = header.indexOf(':');
            if (colon <= 0 || header.contains("\r") || header.contains("\n")) {
                throw new IllegalArgumentException(
                        "header '" + header + "' must look like 'Name: value'");
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            hasHost |= name.equals("host");
            hasLength |= name.equals("content-length");
            head.append(header).append("\r\n");
        }
        if (!hasHost) {
            String hostHeader =
                    port == defaultPort
                            ? target.toString().substring(0, target.toString().lastIndexOf(':'))
                            : target.toString();
            head.insert(head.indexOf("\r\n") + 2, "Host: " + hostHeader + "\r\n");
        }
        if (!body.isEmpty() && !hasLength) {
            head.append("Content-Length: $(").append(RequestSpec.LENGTH).append(")\r\n");
        }
        head.append("\r\n");
        RequestSpec request =
                new RequestSpec(true, head.toString(), 0, body, 0, 0, LengthType.BODY);
        // An empty code at offset 1 finds no code: the status alone judges each response.
        ResponseSpec response =
                new ResponseSpec(
                        8,
                        1,
                        8,
                        LengthType.BODY,
                        CodeType.FIXED,
                        CodeLocation.BODY,
                        "1 0",
                        1,
                        0,
                        "",
                        SUCCESS_STATUSES,
                        // Nothing judges the body: long ones are read as they arrive, so no
                        // profile's cap is needed to bound memory (wrk has none either).
                        Long.MAX_VALUE);
        return new Profile(
                null,
                target,
                true,
                request,
                response,
                List.of(),
                https ? Optional.of(TlsSpec.DEFAULTS) : Optional.empty());
    }
}
