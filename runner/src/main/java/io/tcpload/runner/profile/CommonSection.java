package io.tcpload.runner.profile;

import io.netty.util.NetUtil;
import io.tcpload.runner.profile.Section.Keys;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** Reads {@code [common]}: where to connect, HTTP mode and connection reuse. */
final class CommonSection {
    private static final Pattern HTTP_LINE =
            Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+ [^ \\t\\r\\n]+ HTTP/1\\.[0-9]");
    private static final Pattern DNS_LABEL =
            Pattern.compile("[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?");
    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");
    private static final int MAX_DNS_NAME = 253;
    private static final int MAX_DNS_LABEL = 63;

    /**
     * What {@code [common]} says.
     *
     * @param target where to connect; empty when host or port is missing or invalid
     * @param httpLine the {@code http_line} entry, present in HTTP mode
     * @param keepAlive {@code keepalive}
     */
    record Settings(Optional<Target> target, Optional<IniEntry> httpLine, boolean keepAlive) {}

    private CommonSection() {}

    static Settings read(IniDocument document, Problems problems) {
        Optional<String> host = host(document, problems);
        OptionalLong port = port(document, problems);
        Optional<Target> target = Optional.empty();
        if (host.isPresent() && port.isPresent()) {
            try {
                target = Optional.of(new Target(host.get(), (int) port.getAsLong()));
            } catch (IllegalArgumentException e) {
                int line = document.last(Section.COMMON, Keys.HOST).map(IniEntry::line).orElse(0);
                problems.error(line, Keys.HOST, e.getMessage() + ".");
            }
        }
        return new Settings(target, httpLine(document, problems), keepAlive(document, problems));
    }

    private static Optional<String> host(IniDocument document, Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, Keys.HOST);
        if (entry.isEmpty()) {
            problems.error(0, Keys.HOST, "is required in [common]: the address to connect to.");
            return Optional.empty();
        }
        String written = entry.get().value();
        Optional<String> problem = hostProblem(written);
        if (problem.isPresent()) {
            problems.error(entry.get().line(), Keys.HOST, problem.get());
            return Optional.empty();
        }
        return Optional.of(withoutBrackets(written));
    }

    /** Why the host is not a DNS name, IPv4 or IPv6 address; empty when it is one. */
    static Optional<String> hostProblem(String written) {
        String quoted = Values.quote(written);
        if (written.isEmpty()) {
            return Optional.of("is empty; give a host name, an IPv4 or an IPv6 address.");
        }
        if (written.startsWith("[") || written.indexOf(':') >= 0) {
            String address = withoutBrackets(written);
            boolean bracketsMatch = written.startsWith("[") == written.endsWith("]");
            return bracketsMatch && NetUtil.isValidIpV6Address(address)
                    ? Optional.empty()
                    : Optional.of(quoted + " is not a valid IPv6 address.");
        }
        if (DIGITS_AND_DOTS.matcher(written).matches()) {
            return NetUtil.isValidIpV4Address(written)
                    ? Optional.empty()
                    : Optional.of(quoted + " is not a valid IPv4 address.");
        }
        String name = written.endsWith(".") ? written.substring(0, written.length() - 1) : written;
        if (name.length() > MAX_DNS_NAME) {
            return Optional.of(
                    "is longer than the " + MAX_DNS_NAME + " characters a DNS name allows.");
        }
        for (String label : name.split("\\.", -1)) {
            if (label.length() > MAX_DNS_LABEL || !DNS_LABEL.matcher(label).matches()) {
                return Optional.of(
                        quoted
                                + " is not a valid host name: use letters, digits, '-' and '.',"
                                + " or an IP address.");
            }
        }
        return Optional.empty();
    }

    private static String withoutBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]")
                ? host.substring(1, host.length() - 1)
                : host;
    }

    private static OptionalLong port(IniDocument document, Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, Keys.PORT);
        if (entry.isEmpty()) {
            problems.error(0, Keys.PORT, "is required in [common]: the TCP port to connect to.");
            return OptionalLong.empty();
        }
        return Values.integer(entry.get(), 1, 65535, problems);
    }

    private static Optional<IniEntry> httpLine(IniDocument document, Problems problems) {
        Optional<IniEntry> entry = document.last(Section.COMMON, Keys.HTTP_LINE);
        if (entry.isPresent() && !HTTP_LINE.matcher(entry.get().value()).matches()) {
            problems.error(
                    entry.get().line(),
                    Keys.HTTP_LINE,
                    "must look like 'METHOD target HTTP/1.1' (single spaces), not "
                            + Values.quote(entry.get().value())
                            + ".");
        }
        return entry;
    }

    private static boolean keepAlive(IniDocument document, Problems problems) {
        return document.last(Section.COMMON, Keys.KEEPALIVE)
                .flatMap(e -> Values.choice(e, Map.of("true", true, "false", false), problems))
                .orElse(false);
    }
}
