package io.tcpload.runner.profile;

import java.util.Objects;

/**
 * Where a response carries a value: an {@code rsp_extract} (the value becomes the connection's
 * variable {@code name}, usable as {@code $(name)} in later requests) or an {@code rsp_echo} (the
 * value must equal what the request sent as {@code $(name)}).
 *
 * <p>The rule reads the head or the body ({@code location}) as the code rule does: FIXED takes
 * {@code fixedLength} bytes at 1-based {@code fixedBegin}; XML the text after the literal {@code
 * tag} up to the next {@code </}; JSON the next double-quoted string after the literal {@code tag};
 * REGEX the first group (or, without a group, the whole match) of the regular expression {@code
 * tag}.
 *
 * @param name the variable or the parameter it names
 * @param line the INI line the rule is written on
 * @param type how the value is found
 * @param location head or body
 * @param tag the rule's text as written (fixed: {@code begin length}; xml: the opening tag; json:
 *     the key with its quotes; regex: the expression)
 * @param fixedBegin for FIXED, the 1-based first byte; otherwise 0
 * @param fixedLength for FIXED, the length; otherwise 0
 */
public record ValueRule(
        String name,
        int line,
        Type type,
        CodeLocation location,
        String tag,
        int fixedBegin,
        int fixedLength) {

    /**
     * The longest value carried from a response: a longer one fails the response, so that garbage
     * cannot grow a connection's variables.
     */
    public static final int MAX_VALUE_BYTES = 4096;

    /** How a value is found in a response. */
    public enum Type {
        FIXED,
        XML,
        JSON,
        REGEX
    }

    public ValueRule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(tag, "tag");
    }

    /** The rule as messages and the dry run show it: {@code xml <session> in body}. */
    public String describe() {
        return type.name().toLowerCase(java.util.Locale.ROOT)
                + " "
                + tag
                + " in "
                + location.name().toLowerCase(java.util.Locale.ROOT);
    }
}
