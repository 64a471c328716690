package io.tcpload.runner.profile;

/**
 * One {@code key = value} line of a profile.
 *
 * @param section the section it is in
 * @param name the request name of a {@code [request.NAME]} or {@code [response.NAME]} section;
 *     empty in a plain section
 * @param line the 1-based line it starts on
 * @param key the key, trimmed, with aliases already replaced by the real key
 * @param value the value, trimmed of spaces and tabs (continued values keep their newlines)
 */
record IniEntry(Section section, String name, int line, String key, String value) {
    IniEntry(Section section, int line, String key, String value) {
        this(section, "", line, key, value);
    }
}
