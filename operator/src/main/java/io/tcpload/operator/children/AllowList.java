package io.tcpload.operator.children;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Names a test may give, as the operator was told (the chart's {@code runnerPolicy}): exact names,
 * or prefixes ending in {@code *} ({@code registry.example.com/load/*}). An empty list allows every
 * name. Immutable, pure.
 *
 * @param patterns the names and prefixes, in the order given
 * @param source where the list came from, named in refusals (an environment variable)
 */
public record AllowList(List<String> patterns, String source) {
    /** Allows every name. */
    public static AllowList any(String source) {
        return new AllowList(List.of(), source);
    }

    public AllowList {
        patterns = List.copyOf(patterns);
    }

    /**
     * A comma-separated list, blanks around each entry ignored; null or blank allows every name.
     *
     * @throws IllegalArgumentException naming {@code source} for a {@code *} anywhere but at the
     *     end of an entry
     */
    public static AllowList parse(String text, String source) {
        if (text == null || text.isBlank()) {
            return any(source);
        }
        List<String> patterns = new ArrayList<>();
        for (String entry : Arrays.stream(text.split(",")).map(String::strip).toList()) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.indexOf('*') >= 0 && entry.indexOf('*') != entry.length() - 1) {
                throw new IllegalArgumentException(
                        source
                                + ": '"
                                + entry
                                + "' has a '*' before its end; an entry is an exact name or a"
                                + " prefix ending in '*'");
            }
            patterns.add(entry);
        }
        return new AllowList(patterns, source);
    }

    /** Whether every name is allowed. */
    public boolean allowsAny() {
        return patterns.isEmpty();
    }

    /** Whether {@code name} is allowed: equal to an entry, or starting with a prefix entry. */
    public boolean allows(String name) {
        if (patterns.isEmpty()) {
            return true;
        }
        if (name == null) {
            return false;
        }
        for (String pattern : patterns) {
            boolean allowed =
                    pattern.endsWith("*")
                            ? name.startsWith(pattern.substring(0, pattern.length() - 1))
                            : name.equals(pattern);
            if (allowed) {
                return true;
            }
        }
        return false;
    }

    /** The list as given, for messages: {@code a, b/*}. */
    public String describe() {
        return String.join(", ", patterns);
    }
}
