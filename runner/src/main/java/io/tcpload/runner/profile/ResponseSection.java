package io.tcpload.runner.profile;

import io.tcpload.runner.profile.Section.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/** Reads {@code [response]} into a {@link ResponseSpec}: framing and the success rule. */
final class ResponseSection {
    private static final List<String> FRAMING_KEYS =
            List.of(Keys.RSP_HEADLEN, Keys.RSP_LEN_BEG, Keys.RSP_LEN_LEN, Keys.RSP_LEN_TYPE);
    private static final Map<String, LengthType> LENGTH_TYPES =
            Map.of("body", LengthType.BODY, "total", LengthType.TOTAL);
    private static final Map<String, CodeType> CODE_TYPES =
            Map.of("fixed", CodeType.FIXED, "xml", CodeType.XML, "json", CodeType.JSON);
    private static final Map<String, CodeLocation> CODE_LOCATIONS =
            Map.of("head", CodeLocation.HEAD, "body", CodeLocation.BODY);
    private static final Pattern FIXED_TAG = Pattern.compile("([0-9]+)[ \\t]+([0-9]+)");
    private static final Pattern STATUS = Pattern.compile("[0-9x]{3}");
    private static final int MAX_LENGTH_WIDTH = 10;
    private static final Pattern VALUE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Map<String, ValueRule.Type> VALUE_TYPES =
            Map.of(
                    "fixed", ValueRule.Type.FIXED,
                    "xml", ValueRule.Type.XML,
                    "json", ValueRule.Type.JSON,
                    "regex", ValueRule.Type.REGEX);

    /** The keys a {@code [response.NAME]} may not set: one framing reads every response. */
    private static final List<String> PROFILE_WIDE_KEYS =
            List.of(
                    Keys.RSP_HEADLEN,
                    Keys.RSP_LEN_BEG,
                    Keys.RSP_LEN_LEN,
                    Keys.RSP_LEN_TYPE,
                    Keys.MAX_RESPONSE_BYTES);

    private final IniDocument document;
    private final Problems problems;
    private final boolean http;

    /** What an absent key means: wrktcp's defaults, or for a named section the plain one. */
    private final ResponseSpec defaults;

    private final boolean named;

    private ResponseSection(
            IniDocument document,
            boolean http,
            ResponseSpec defaults,
            boolean named,
            Problems problems) {
        this.document = document;
        this.http = http;
        this.defaults = defaults;
        this.named = named;
        this.problems = problems;
    }

    static ResponseSpec read(IniDocument document, boolean http, Problems problems) {
        return new ResponseSection(document, http, ResponseSpec.defaults(), false, problems).read();
    }

    /**
     * Reads a {@code [response.NAME]}: how one request of a mix is judged, every key it leaves out
     * taken from {@code [response]} ({@code base}). The framing stays the profile's: a connection
     * reads each response before it can tell which request's answer it is.
     */
    static ResponseSpec readNamed(
            IniDocument document, ResponseSpec base, boolean http, Problems problems) {
        return new ResponseSection(document, http, base, true, problems).read();
    }

    private ResponseSpec read() {
        int headLength = defaults.headLength();
        int lengthBegin = defaults.lengthBegin();
        int lengthWidth = defaults.lengthWidth();
        LengthType lengthType = defaults.lengthType();
        if (named) {
            refuseProfileWideKeys();
        } else if (http) {
            warnFramingIgnored();
        } else {
            headLength = (int) integer(Keys.RSP_HEADLEN, 2, Integer.MAX_VALUE, headLength);
            lengthBegin = (int) integer(Keys.RSP_LEN_BEG, 1, Integer.MAX_VALUE, lengthBegin);
            lengthWidth = (int) integer(Keys.RSP_LEN_LEN, 1, MAX_LENGTH_WIDTH, lengthWidth);
            lengthType = choice(Keys.RSP_LEN_TYPE, LENGTH_TYPES).orElse(lengthType);
            checkLengthFieldFits(headLength, lengthBegin, lengthWidth);
        }
        CodeType codeType = choice(Keys.RSP_CODE_TYPE, CODE_TYPES).orElse(defaults.codeType());
        CodeLocation location =
                choice(Keys.RSP_CODE_LOCATION, CODE_LOCATIONS).orElse(defaults.codeLocation());
        Optional<IniEntry> tag = last(Keys.RSP_CODE_LOCATION_TAG);
        String codeTag = tag.map(IniEntry::value).orElse(fallbackTag(codeType));
        int fixedBegin = 0;
        int fixedLength = 0;
        if (codeType == CodeType.FIXED) {
            FixedRange range = fixedRange(tag, codeTag, location, headLength);
            fixedBegin = range.begin();
            fixedLength = range.length();
        } else if (codeTag.isEmpty() || (tag.isEmpty() && !named)) {
            problems.error(
                    tag.map(IniEntry::line).orElse(0),
                    Keys.RSP_CODE_LOCATION_TAG,
                    "is required for rsp_code_type "
                            + codeType.name().toLowerCase(Locale.ROOT)
                            + ": the literal text before the code, e.g. "
                            + (codeType == CodeType.XML ? "<retCode>" : "\"retCode\"")
                            + ".");
        }
        Optional<IniEntry> successEntry = last(Keys.RSP_CODE_SUCCESS);
        String codeSuccess = successEntry.map(IniEntry::value).orElse(defaults.codeSuccess());
        if (codeType == CodeType.FIXED
                && fixedBegin > 0
                && fixedLength == 0
                && !codeSuccess.isEmpty()) {
            problems.error(
                    successEntry.or(() -> tag).map(IniEntry::line).orElse(0),
                    Keys.RSP_CODE_SUCCESS,
                    "must be empty (rsp_code_success =) with a code of no bytes ('"
                            + codeTag
                            + "'), which only rsp_http_status judges; it is "
                            + Values.quote(codeSuccess)
                            + ".");
        }
        return new ResponseSpec(
                headLength,
                lengthBegin,
                lengthWidth,
                lengthType,
                codeType,
                location,
                codeTag,
                fixedBegin,
                fixedLength,
                codeSuccess,
                httpStatuses(),
                named
                        ? defaults.maxResponseBytes()
                        : integer(
                                Keys.MAX_RESPONSE_BYTES,
                                1,
                                Long.MAX_VALUE,
                                defaults.maxResponseBytes()),
                valueRules(Keys.RSP_EXTRACT, defaults.extracts(), headLength),
                valueRules(Keys.RSP_ECHO, defaults.echoes(), headLength));
    }

    /**
     * The {@code rsp_extract} or {@code rsp_echo} rules, {@code NAME, TYPE, LOCATION, TAG} each; a
     * section that writes none keeps {@code inherited} (a named section, {@code [response]}'s).
     */
    private List<ValueRule> valueRules(String key, List<ValueRule> inherited, int headLength) {
        List<IniEntry> entries = document.all(Section.RESPONSE, key);
        if (entries.isEmpty()) {
            return inherited;
        }
        List<ValueRule> rules = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (IniEntry entry : entries) {
            ValueRule rule = valueRule(entry, headLength);
            if (rule == null) {
                continue;
            }
            if (!names.add(rule.name())) {
                problems.error(
                        entry.line(),
                        key,
                        rule.name() + " is already given a " + key + " rule in this section.");
                continue;
            }
            rules.add(rule);
        }
        return rules;
    }

    private ValueRule valueRule(IniEntry entry, int headLength) {
        String[] parts = entry.value().split(",", 4);
        String form =
                " is written NAME, TYPE, LOCATION, TAG: TYPE fixed, xml, json or regex, LOCATION"
                        + " head or body, e.g. SESSION, xml, body, <session>.";
        if (parts.length < 4) {
            problems.error(entry.line(), entry.key(), entry.key() + form);
            return null;
        }
        String name = IniLines.trimBlanks(parts[0]);
        String type = IniLines.trimBlanks(parts[1]);
        String location = IniLines.trimBlanks(parts[2]);
        String tag = IniLines.trimBlanks(parts[3]);
        if (!VALUE_NAME.matcher(name).matches() || name.equals(RequestSpec.LENGTH)) {
            problems.error(
                    entry.line(),
                    entry.key(),
                    "names "
                            + Values.quote(name)
                            + ": a value's name is a letter or _ followed by letters, digits or _"
                            + " (not length).");
            return null;
        }
        ValueRule.Type valueType = VALUE_TYPES.get(type);
        CodeLocation where = CODE_LOCATIONS.get(location);
        if (valueType == null || where == null || tag.isEmpty()) {
            problems.error(entry.line(), entry.key(), entry.key() + form);
            return null;
        }
        int begin = 0;
        int length = 0;
        switch (valueType) {
            case FIXED -> {
                var matcher = FIXED_TAG.matcher(tag);
                OptionalLong b =
                        matcher.matches()
                                ? Values.parseLong(matcher.group(1))
                                : OptionalLong.empty();
                OptionalLong l =
                        matcher.matches()
                                ? Values.parseLong(matcher.group(2))
                                : OptionalLong.empty();
                if (b.isEmpty()
                        || l.isEmpty()
                        || b.getAsLong() < 1
                        || l.getAsLong() < 1
                        || b.getAsLong() > Integer.MAX_VALUE
                        || l.getAsLong() > ValueRule.MAX_VALUE_BYTES) {
                    problems.error(
                            entry.line(),
                            entry.key(),
                            "a fixed value's TAG is 'begin length', two whole numbers above 0 (the"
                                    + " length at most "
                                    + ValueRule.MAX_VALUE_BYTES
                                    + "), not "
                                    + Values.quote(tag)
                                    + ".");
                    return null;
                }
                begin = (int) b.getAsLong();
                length = (int) l.getAsLong();
                if (!http && where == CodeLocation.HEAD && begin - 1L + length > headLength) {
                    problems.error(
                            entry.line(),
                            entry.key(),
                            "the value (bytes "
                                    + begin
                                    + " to "
                                    + (begin - 1L + length)
                                    + ") does not fit in the "
                                    + headLength
                                    + "-byte head (rsp_headlen).");
                    return null;
                }
            }
            case REGEX -> {
                try {
                    Pattern.compile(tag);
                } catch (java.util.regex.PatternSyntaxException e) {
                    problems.error(
                            entry.line(),
                            entry.key(),
                            "the regular expression "
                                    + Values.quote(tag)
                                    + " is not valid: "
                                    + e.getDescription()
                                    + ".");
                    return null;
                }
            }
            default -> {}
        }
        return new ValueRule(name, entry.line(), valueType, where, tag, begin, length);
    }

    /**
     * The tag when the section gives none: a named section keeps {@code [response]}'s when the code
     * type is the same; with another type an inherited tag would mean nothing.
     */
    private String fallbackTag(CodeType codeType) {
        if (!named || defaults.codeType() == codeType) {
            return defaults.codeTag();
        }
        return codeType == CodeType.FIXED ? ResponseSpec.defaults().codeTag() : "";
    }

    private void refuseProfileWideKeys() {
        for (String key : PROFILE_WIDE_KEYS) {
            last(key)
                    .ifPresent(
                            e ->
                                    problems.error(
                                            e.line(),
                                            key,
                                            "belongs in [response]: every response of a profile is"
                                                    + " framed alike; a [response.NAME] section"
                                                    + " sets only how its request is judged."));
        }
    }

    private void warnFramingIgnored() {
        for (String key : FRAMING_KEYS) {
            last(key)
                    .ifPresent(
                            e ->
                                    problems.warn(
                                            e.line(),
                                            key,
                                            "is ignored in HTTP mode: responses are framed by"
                                                    + " HTTP/1.1."));
        }
    }

    private void checkLengthFieldFits(int headLength, int lengthBegin, int lengthWidth) {
        long lastByte = (long) lengthBegin + lengthWidth - 1;
        if (lastByte > headLength) {
            int line =
                    last(Keys.RSP_LEN_BEG)
                            .or(() -> last(Keys.RSP_LEN_LEN))
                            .or(() -> last(Keys.RSP_HEADLEN))
                            .map(IniEntry::line)
                            .orElse(0);
            problems.error(
                    line,
                    Keys.RSP_LEN_BEG,
                    "the length field (bytes "
                            + lengthBegin
                            + " to "
                            + lastByte
                            + ") does not fit in the "
                            + headLength
                            + "-byte head (rsp_headlen).");
        }
    }

    /** The 1-based first byte and the length of a fixed code; zeros when not usable. */
    private record FixedRange(int begin, int length) {}

    /** Reads {@code beg len} of a fixed code, reporting what is wrong with it. */
    private FixedRange fixedRange(
            Optional<IniEntry> tag, String codeTag, CodeLocation location, int headLength) {
        int line = tag.map(IniEntry::line).orElse(0);
        var matcher = FIXED_TAG.matcher(codeTag);
        OptionalLong begin = OptionalLong.empty();
        OptionalLong length = OptionalLong.empty();
        if (matcher.matches()) {
            begin = Values.parseLong(matcher.group(1));
            length = Values.parseLong(matcher.group(2));
        }
        if (begin.isEmpty()
                || length.isEmpty()
                || begin.getAsLong() < 1
                // HTTP has its status to judge by: a code of no bytes leaves that alone to judge
                // (an answer to HEAD has no body to hold a code).
                || length.getAsLong() < (http ? 0 : 1)
                || begin.getAsLong() > Integer.MAX_VALUE
                || length.getAsLong() > Integer.MAX_VALUE) {
            problems.error(
                    line,
                    Keys.RSP_CODE_LOCATION_TAG,
                    (http
                                    ? "for rsp_code_type fixed must be 'begin length', a begin"
                                            + " above 0 and a length of 0 or more (0: no code,"
                                            + " rsp_http_status alone judges), e.g. '1 6', not "
                                    : "for rsp_code_type fixed must be two whole numbers above 0,"
                                            + " 'begin length' (e.g. '1 6'), not ")
                            + Values.quote(codeTag)
                            + ".");
            return new FixedRange(0, 0);
        }
        long lastByte = begin.getAsLong() + length.getAsLong() - 1;
        if (!http && location == CodeLocation.HEAD && lastByte > headLength) {
            problems.error(
                    line,
                    Keys.RSP_CODE_LOCATION_TAG,
                    "the code (bytes "
                            + begin.getAsLong()
                            + " to "
                            + lastByte
                            + ") does not fit in the "
                            + headLength
                            + "-byte head (rsp_headlen).");
        }
        return new FixedRange((int) begin.getAsLong(), (int) length.getAsLong());
    }

    private List<String> httpStatuses() {
        Optional<IniEntry> entry = last(Keys.RSP_HTTP_STATUS);
        if (entry.isEmpty()) {
            return defaults.httpStatuses();
        }
        if (!http) {
            problems.warn(
                    entry.get().line(),
                    Keys.RSP_HTTP_STATUS,
                    "is ignored: it only applies in HTTP mode (with http_line).");
            return List.of();
        }
        List<String> statuses = new ArrayList<>();
        for (String item : entry.get().value().split(",", -1)) {
            String status = IniLines.trimBlanks(item).toLowerCase(Locale.ROOT);
            if (!STATUS.matcher(status).matches()) {
                problems.error(
                        entry.get().line(),
                        Keys.RSP_HTTP_STATUS,
                        "must be a comma-separated list of three-character statuses such as 200"
                                + " or 2xx, not "
                                + Values.quote(entry.get().value())
                                + ".");
                return List.of();
            }
            statuses.add(status);
        }
        return statuses;
    }

    private long integer(String key, long min, long max, long fallback) {
        return Values.integerOr(last(key), min, max, fallback, problems);
    }

    private <T> Optional<T> choice(String key, Map<String, T> choices) {
        return last(key).flatMap(e -> Values.choice(e, choices, problems));
    }

    private Optional<IniEntry> last(String key) {
        return document.last(Section.RESPONSE, key);
    }
}
