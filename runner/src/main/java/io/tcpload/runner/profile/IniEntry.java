package io.tcpload.runner.profile;

/**
 * One {@code key = value} line of a profile.
 *
 * @param section the section it is in
 * @param line the 1-based line it starts on
 * @param key the key, trimmed, with aliases already replaced by the real key
 * @param value the value, trimmed of spaces and tabs (continued values keep their newlines)
 */
record IniEntry(Section section, int line, String key, String value) {}
