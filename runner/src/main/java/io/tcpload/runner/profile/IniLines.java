package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns profile text into logical lines the way wrktcp does: a physical line ending in a backslash
 * continues on the next one, the backslash becoming a newline character. Unlike wrktcp, {@code
 * \r\n} line ends are accepted and there is no length limit.
 */
final class IniLines {
    private IniLines() {}

    /**
     * One logical line.
     *
     * @param number the 1-based physical line it starts on
     * @param text the joined text, without its line end
     */
    record LogicalLine(int number, String text) {}

    /** Splits {@code text} into logical lines, blank and comment lines included. */
    static List<LogicalLine> split(String text) {
        List<LogicalLine> lines = new ArrayList<>();
        forEach(text, lines::add);
        return lines;
    }

    /**
     * Gives each logical line of {@code text} to {@code action}, in order, without holding them
     * all: a profile can have millions of lines.
     */
    static void forEach(String text, Consumer<LogicalLine> action) {
        StringBuilder logical = null;
        int logicalStart = 0;
        int physicalNumber = 0;
        int position = 0;
        while (position < text.length()) {
            int newline = text.indexOf('\n', position);
            int end = newline < 0 ? text.length() : newline;
            String physical = stripCarriageReturn(text.substring(position, end));
            position = end + 1;
            physicalNumber++;
            boolean continued = physical.endsWith("\\");
            if (logical == null && !continued) {
                action.accept(new LogicalLine(physicalNumber, physical));
                continue;
            }
            if (logical == null) {
                logical = new StringBuilder();
                logicalStart = physicalNumber;
            }
            if (continued) {
                // wrktcp replaces the backslash with a newline, so the pieces are joined by '\n'.
                logical.append(physical, 0, physical.length() - 1).append('\n');
            } else {
                logical.append(physical);
                action.accept(new LogicalLine(logicalStart, logical.toString()));
                logical = null;
            }
        }
        if (logical != null) {
            // The file ended on a continued line: the value keeps the trailing newline, as in
            // wrktcp.
            action.accept(new LogicalLine(logicalStart, logical.toString()));
        }
    }

    private static String stripCarriageReturn(String physical) {
        return physical.endsWith("\r") ? physical.substring(0, physical.length() - 1) : physical;
    }

    /** Trims spaces and tabs only, never newlines, which are part of continued values. */
    static String trimBlanks(String text) {
        int begin = 0;
        int end = text.length();
        while (begin < end && isBlank(text.charAt(begin))) {
            begin++;
        }
        while (end > begin && isBlank(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(begin, end);
    }

    static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }
}
