package io.tcpload.runner.profile;

import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.format.Strftime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code [parameters]}: {@code NAME = TYPE, ARGS} lines. */
final class ParameterSection {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final List<String> TYPES =
            List.of("COUNTER", "FILE", "DATETIME", "CONNECTID", "ENV");
    private static final Map<String, String> USAGE =
            Map.of(
                    "COUNTER", "NAME = COUNTER, start, end, step, format",
                    "FILE", "NAME = FILE, path",
                    "DATETIME", "NAME = DATETIME, strftime-format",
                    "CONNECTID", "NAME = CONNECTID, format",
                    "ENV", "NAME = ENV, VARIABLE");

    /**
     * The parameters that could be built, and every name declared (also those whose arguments are
     * wrong, so that templates using them are not reported a second time).
     */
    record Parameters(List<ParameterSpec> specs, Set<String> declared) {}

    private final DataFileResolver dataFiles;
    private final Map<String, DataFileResolver.Lookup> lookups = new HashMap<>();

    /** Formats are immutable: parameters written alike share one (a profile may have a million). */
    private final Map<String, IntFormat> intFormats = new HashMap<>();

    private final Problems problems;

    private ParameterSection(DataFileResolver dataFiles, Problems problems) {
        this.dataFiles = dataFiles;
        this.problems = problems;
    }

    /**
     * @param dataFiles where FILE parameters' data files are found
     */
    static Parameters read(IniDocument document, DataFileResolver dataFiles, Problems problems) {
        ParameterSection section = new ParameterSection(dataFiles, problems);
        List<ParameterSpec> specs = new ArrayList<>();
        // Name to the line it is declared on, in file order.
        Map<String, Integer> declaredOn = new LinkedHashMap<>();
        for (IniEntry entry : document.entries(Section.PARAMETERS)) {
            if (!section.validName(entry)) {
                continue;
            }
            Integer earlier = declaredOn.putIfAbsent(entry.key(), entry.line());
            if (earlier != null) {
                problems.error(
                        entry.line(),
                        entry.key(),
                        "is already declared on line "
                                + earlier
                                + "; parameter names must differ.");
                continue;
            }
            section.parameter(entry).ifPresent(specs::add);
        }
        return new Parameters(specs, Collections.unmodifiableSet(declaredOn.keySet()));
    }

    private boolean validName(IniEntry entry) {
        if (entry.key().equals(RequestSpec.LENGTH)) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "is built in ($(length) is the length field) and cannot be declared.");
            return false;
        }
        if (!NAME.matcher(entry.key()).matches()) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "is not a valid parameter name: use letters, digits and '_', not starting with"
                            + " a digit.");
            return false;
        }
        return true;
    }

    private Optional<ParameterSpec> parameter(IniEntry entry) {
        String value = entry.value();
        int comma = value.indexOf(',');
        String type = IniLines.trimBlanks(comma < 0 ? value : value.substring(0, comma));
        if (!TYPES.contains(type)) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "unknown parameter type "
                            + Values.quote(type)
                            + "; the types are "
                            + String.join(", ", TYPES)
                            + ".");
            return Optional.empty();
        }
        if (comma < 0) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    type + " needs its arguments after a comma: " + USAGE.get(type) + ".");
            return Optional.empty();
        }
        String args = IniLines.trimBlanks(value.substring(comma + 1));
        return switch (type) {
            case "COUNTER" -> counter(entry, args);
            case "FILE" -> file(entry, args);
            case "DATETIME" -> dateTime(entry, args);
            case "ENV" -> env(entry, args);
            default -> connectId(entry, args);
        };
    }

    private Optional<ParameterSpec> counter(IniEntry entry, String args) {
        String[] fields = args.split(",", -1);
        if (fields.length != 4) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "COUNTER takes 4 values after the type, "
                            + USAGE.get("COUNTER")
                            + ", but has "
                            + fields.length
                            + ".");
            return Optional.empty();
        }
        OptionalLong start = counterField(entry, "start", fields[0]);
        OptionalLong end = counterField(entry, "end", fields[1]);
        OptionalLong step = counterField(entry, "step", fields[2]);
        Optional<IntFormat> format = intFormat(entry, "COUNTER", IniLines.trimBlanks(fields[3]));
        if (step.isPresent() && step.getAsLong() <= 0) {
            problems.error(entry.line(), entry.key(), "the COUNTER step must be above 0.");
            return Optional.empty();
        }
        if (start.isPresent() && end.isPresent() && end.getAsLong() < start.getAsLong()) {
            problems.error(
                    entry.line(), entry.key(), "the COUNTER end must not be below its start.");
            return Optional.empty();
        }
        if (start.isEmpty() || end.isEmpty() || step.isEmpty() || format.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                new ParameterSpec.Counter(
                        entry.key(),
                        entry.line(),
                        start.getAsLong(),
                        end.getAsLong(),
                        step.getAsLong(),
                        format.get()));
    }

    private OptionalLong counterField(IniEntry entry, String field, String text) {
        String trimmed = IniLines.trimBlanks(text);
        OptionalLong value = Values.parseLong(trimmed);
        if (value.isEmpty()) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "the COUNTER "
                            + field
                            + " must be a whole number, not "
                            + Values.quote(trimmed)
                            + ".");
        }
        return value;
    }

    /** A variable name as a shell and Kubernetes take it: letters, digits and '_'. */
    private Optional<ParameterSpec> env(IniEntry entry, String args) {
        if (!args.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "ENV needs the name of an environment variable (letters, digits and '_'),"
                            + " not "
                            + Values.quote(args)
                            + ": "
                            + USAGE.get("ENV")
                            + ".");
            return Optional.empty();
        }
        return Optional.of(new ParameterSpec.Env(entry.key(), entry.line(), args));
    }

    private Optional<ParameterSpec> connectId(IniEntry entry, String args) {
        return intFormat(entry, "CONNECTID", args)
                .map(f -> new ParameterSpec.ConnectId(entry.key(), entry.line(), f));
    }

    private Optional<IntFormat> intFormat(IniEntry entry, String type, String format) {
        try {
            return Optional.of(intFormats.computeIfAbsent(format, IntFormat::parse));
        } catch (IllegalArgumentException e) {
            problems.error(
                    entry.line(), entry.key(), type + ": " + Values.sentence(e.getMessage()));
            return Optional.empty();
        }
    }

    private Optional<ParameterSpec> dateTime(IniEntry entry, String args) {
        // wrktcp's README writes the format in quotes, which wrktcp would send; we drop one pair.
        String format =
                args.length() >= 2 && args.startsWith("\"") && args.endsWith("\"")
                        ? args.substring(1, args.length() - 1)
                        : args;
        if (format.isEmpty()) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "DATETIME needs a format after the comma: " + USAGE.get("DATETIME") + ".");
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new ParameterSpec.DateTime(
                            entry.key(), entry.line(), Strftime.compile(format)));
        } catch (IllegalArgumentException e) {
            problems.error(
                    entry.line(), entry.key(), "DATETIME: " + Values.sentence(e.getMessage()));
            return Optional.empty();
        }
    }

    private Optional<ParameterSpec> file(IniEntry entry, String written) {
        if (written.isEmpty()) {
            problems.error(entry.line(), entry.key(), "FILE needs a path: NAME = FILE, path.");
            return Optional.empty();
        }
        if (ByteText.hasKeptBytes(written)) {
            // File names are opened as UTF-8 text; other bytes could not name the file.
            problems.error(
                    entry.line(),
                    entry.key(),
                    "the FILE path "
                            + Values.quote(written)
                            + " is not UTF-8; give the data file a UTF-8 (or ASCII) name.");
            return Optional.empty();
        }
        // One lookup per name: parameters naming the same file share its content.
        DataFileResolver.Lookup lookup = lookups.computeIfAbsent(written, dataFiles::resolve);
        if (lookup instanceof DataFileResolver.Refused refused) {
            problems.error(entry.line(), entry.key(), refused.message());
            return Optional.empty();
        }
        DataFileResolver.Found found = (DataFileResolver.Found) lookup;
        if (found.content().isEmpty()) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "the data file " + found.source() + " is empty; it needs at least one line.");
            return Optional.empty();
        }
        return Optional.of(
                new ParameterSpec.File(entry.key(), entry.line(), found.source(), found.content()));
    }
}
