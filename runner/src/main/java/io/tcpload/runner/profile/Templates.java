package io.tcpload.runner.profile;

import java.util.List;

/**
 * Checks the {@code $(NAME)} placeholders of a template value, so that a request that could never
 * be built is refused at load time (wrktcp crashes or sends nothing instead).
 */
final class Templates {
    private static final String OPEN = "$(";

    private Templates() {}

    /**
     * Reports unclosed and undeclared placeholders in {@code entry}'s value.
     *
     * @param declared the declared parameter names, in file order
     * @return whether the value contains {@code $(length)}
     */
    static boolean check(IniEntry entry, List<String> declared, Problems problems) {
        String text = entry.value();
        boolean hasLength = false;
        int open = text.indexOf(OPEN);
        while (open >= 0) {
            int close = text.indexOf(')', open + OPEN.length());
            if (close < 0) {
                problems.error(
                        entry.lineOf(open),
                        entry.key(),
                        "'$(' has no closing ')'; placeholders are written $(NAME).");
                break;
            }
            String name = text.substring(open + OPEN.length(), close);
            if (name.equals(RequestSpec.LENGTH)) {
                hasLength = true;
            } else if (!declared.contains(name)) {
                problems.error(entry.lineOf(open), entry.key(), undeclared(name, declared));
            }
            open = text.indexOf(OPEN, close + 1);
        }
        return hasLength;
    }

    private static String undeclared(String name, List<String> declared) {
        String placeholder = "$(" + Values.shorten(name) + ")";
        if (name.isEmpty()) {
            return "'$()' names no parameter; placeholders are written $(NAME).";
        }
        if (declared.isEmpty()) {
            return placeholder
                    + " is not a declared parameter; no parameters are declared in [parameters]"
                    + " (only $(length) is built in).";
        }
        return placeholder
                + " is not a declared parameter; declared: "
                + String.join(", ", declared)
                + ".";
    }
}
