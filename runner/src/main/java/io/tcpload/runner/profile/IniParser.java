package io.tcpload.runner.profile;

import io.tcpload.runner.profile.IniLines.LogicalLine;
import io.tcpload.runner.profile.Section.Keys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads logical lines into sections and {@code key = value} entries, reporting syntax problems:
 * lines without {@code =}, unknown sections and unknown keys. Knows nothing of what values mean.
 */
final class IniParser {
    private final Problems problems;
    private final IniDocument document = new IniDocument();

    /** The current section; empty after an unknown header, whose entries are then skipped. */
    private Optional<Section> section = Optional.of(Section.COMMON);

    /** The request name of the current {@code [request.NAME]} or {@code [response.NAME]}, or "". */
    private String sectionName = "";

    /** A request name: it becomes a metric label value and a status row, so it stays plain. */
    private static final Pattern REQUEST_NAME = Pattern.compile("[A-Za-z0-9_-]{1,63}");

    private IniParser(Problems problems) {
        this.problems = problems;
    }

    static IniDocument parse(String text, Problems problems) {
        IniParser parser = new IniParser(problems);
        IniLines.forEach(text, parser::accept);
        parser.warnAboutRepeatedKeys();
        return parser.document;
    }

    private void accept(LogicalLine line) {
        String text = IniLines.trimBlanks(line.text());
        if (text.isEmpty()) {
            return;
        }
        if (text.charAt(0) == '#') {
            if (text.indexOf('\n') >= 0) {
                problems.warn(
                        line.number(),
                        "",
                        "this comment ends in a backslash, so the lines after it are part of the"
                                + " comment");
            }
            return;
        }
        if (text.charAt(0) == '[') {
            header(line.number(), text);
            return;
        }
        entry(line.number(), text);
    }

    private void header(int number, String text) {
        int close = text.indexOf(']');
        if (close < 0) {
            problems.error(number, "", "the section header has no closing ']'.");
            section = Optional.empty();
            return;
        }
        // Anything after ']' is ignored, as in wrktcp: "[request] # note" is a valid header.
        String name = IniLines.trimBlanks(text.substring(1, close));
        if (name.equals(Section.PARAMETERS_ALIAS)) {
            problems.warn(
                    number,
                    "[" + name + "]",
                    "read as [parameters]; please correct the spelling of the section name.");
            section = Optional.of(Section.PARAMETERS);
            return;
        }
        sectionName = "";
        int dot = name.indexOf('.');
        if (dot > 0
                && Section.named(name.substring(0, dot)).filter(Section::nameable).isPresent()) {
            namedHeader(number, name, name.substring(0, dot), name.substring(dot + 1));
            return;
        }
        section = Section.named(name);
        section.ifPresent(document::openPlain);
        if (section.isEmpty()) {
            problems.error(
                    number,
                    "[" + name + "]",
                    "unknown section ["
                            + name
                            + "]; the valid sections are "
                            + Section.headers()
                            + ".");
        }
    }

    /** {@code [request.NAME]} or {@code [response.NAME]}: one request of a transaction mix. */
    private void namedHeader(int number, String header, String base, String name) {
        if (!REQUEST_NAME.matcher(name).matches()) {
            problems.error(
                    number,
                    "[" + header + "]",
                    "a request name is 1 to 63 letters, digits, '_' or '-', not "
                            + Values.quote(name)
                            + ".");
            section = Optional.empty();
            return;
        }
        section = Section.named(base);
        sectionName = name;
        document.openNamed(section.get(), name, number);
    }

    private void entry(int number, String text) {
        int equals = text.indexOf('=');
        if (equals < 0) {
            problems.error(number, "", "the line has no '=': expected 'key = value'.");
            return;
        }
        String key = IniLines.trimBlanks(text.substring(0, equals));
        String value = IniLines.trimBlanks(text.substring(equals + 1));
        if (key.isEmpty()) {
            problems.error(number, "", "the line has no key before '='.");
            return;
        }
        if (section.isEmpty()) {
            return; // already reported: the section header is unknown
        }
        Section current = section.get();
        if (current == Section.RESPONSE && key.equals(Keys.RSP_CODE_LOCATION_TAG_ALIAS)) {
            problems.warn(
                    number,
                    key,
                    "read as " + Keys.RSP_CODE_LOCATION_TAG + "; please correct the spelling.");
            key = Keys.RSP_CODE_LOCATION_TAG;
        }
        if (!current.accepts(key)) {
            String unknown = key;
            problems.error(number, key, () -> unknownKeyMessage(unknown, current));
            return;
        }
        document.add(new IniEntry(current, sectionName, number, key, value));
    }

    private static String unknownKeyMessage(String key, Section current) {
        StringBuilder message =
                new StringBuilder("unknown key in ").append(current.header()).append(';');
        Optional<Section> elsewhere = Section.holding(key, current);
        Optional<String> nearest = Suggestions.nearest(key, current.keys());
        if (elsewhere.isPresent()) {
            message.append(" it belongs in ").append(elsewhere.get().header()).append('.');
        } else if (nearest.isPresent()) {
            message.append(" did you mean ").append(nearest.get()).append("?");
        } else {
            message.append(" the valid keys are ")
                    .append(String.join(", ", current.keys()))
                    .append('.');
        }
        return message.toString();
    }

    /** wrktcp lets the last value win; say so, since the earlier line was probably meant. */
    private void warnAboutRepeatedKeys() {
        boolean http = document.has(Section.COMMON, Keys.HTTP_LINE);
        warnAboutRepeatedKeys(document, http);
        for (Section s : List.of(Section.REQUEST, Section.RESPONSE)) {
            for (IniDocument.Named named : document.named(s)) {
                warnAboutRepeatedKeys(named.document(), http);
            }
        }
    }

    private void warnAboutRepeatedKeys(IniDocument document, boolean http) {
        for (Section s : List.of(Section.COMMON, Section.REQUEST, Section.RESPONSE)) {
            Map<String, IniEntry> seen = new LinkedHashMap<>();
            for (IniEntry entry : document.entries(s)) {
                boolean headerLine =
                        (http && entry.key().equals(Keys.REQ_HEAD))
                                || entry.key().equals(Keys.RSP_EXTRACT)
                                || entry.key().equals(Keys.RSP_ECHO);
                IniEntry earlier = seen.put(entry.key(), entry);
                if (earlier != null && !headerLine) {
                    problems.warn(
                            entry.line(),
                            entry.key(),
                            "also set on line "
                                    + earlier.line()
                                    + "; the value on this line is used.");
                }
            }
        }
    }
}
