package io.tcpload.runner.profile;

import java.util.Set;

/**
 * Checks the {@code $(NAME)} placeholders of a template value, so that a request that could never
 * be built is refused at load time (wrktcp crashes or sends nothing instead). One pass over the
 * value, whatever the number of placeholders and parameters.
 */
final class Templates {
    private static final String OPEN = "$(";

    /** The most declared names a message lists; a profile may declare a million. */
    private static final int MAX_NAMES_LISTED = 10;

    private Templates() {}

    /**
     * Reports unclosed and undeclared placeholders in {@code entry}'s value.
     *
     * @param declared the declared parameter names, in file order
     * @return whether the value contains {@code $(length)}
     */
    static boolean check(IniEntry entry, Set<String> declared, Problems problems) {
        String text = entry.value();
        boolean hasLength = false;
        // Continued values hold one newline per physical line break: count them as we go.
        int line = entry.line();
        int counted = 0;
        int open = text.indexOf(OPEN);
        while (open >= 0) {
            line += newlines(text, counted, open);
            counted = open;
            int close = text.indexOf(')', open + OPEN.length());
            if (close < 0) {
                problems.error(
                        line,
                        entry.key(),
                        "'$(' has no closing ')'; placeholders are written $(NAME).");
                break;
            }
            String name = text.substring(open + OPEN.length(), close);
            if (name.equals(RequestSpec.LENGTH)) {
                hasLength = true;
            } else if (!declared.contains(name)) {
                problems.error(line, entry.key(), () -> undeclared(name, declared));
            }
            open = text.indexOf(OPEN, close + 1);
        }
        return hasLength;
    }

    private static int newlines(String text, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == '\n') {
                count++;
            }
        }
        return count;
    }

    private static String undeclared(String name, Set<String> declared) {
        String placeholder = "$(" + Values.shorten(name) + ")";
        if (name.isEmpty()) {
            return "'$()' names no parameter; placeholders are written $(NAME).";
        }
        if (declared.isEmpty()) {
            return placeholder
                    + " is not a declared parameter; no parameters are declared in [parameters]"
                    + " (only $(length) is built in).";
        }
        return placeholder + " is not a declared parameter; declared: " + listed(declared) + ".";
    }

    private static String listed(Set<String> declared) {
        if (declared.size() <= MAX_NAMES_LISTED) {
            return String.join(", ", declared);
        }
        return String.join(", ", declared.stream().limit(MAX_NAMES_LISTED).toList())
                + ", ... ("
                + declared.size()
                + " in all)";
    }
}
