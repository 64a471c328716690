package io.tcpload.runner.profile;

/**
 * One {@code key = value} line of a profile.
 *
 * @param section the section it is in
 * @param line the 1-based line it starts on
 * @param key the key, trimmed, with aliases already replaced by the real key
 * @param value the value, trimmed of spaces and tabs (continued values keep their newlines)
 */
record IniEntry(Section section, int line, String key, String value) {

    /**
     * The 1-based line of the character at {@code offset} in the value: continued values hold one
     * newline per physical line break.
     */
    int lineOf(int offset) {
        int result = line;
        for (int i = 0; i < offset && i < value.length(); i++) {
            if (value.charAt(i) == '\n') {
                result++;
            }
        }
        return result;
    }
}
