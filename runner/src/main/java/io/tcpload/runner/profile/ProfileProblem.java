package io.tcpload.runner.profile;

/**
 * One thing wrong (or doubtful) in a profile, said plainly and placed exactly.
 *
 * @param file the INI file as the user named it
 * @param line the 1-based line, or 0 when the problem is about the file as a whole
 * @param key the section or key concerned ({@code [request]}, {@code req_body}, {@code SEQ}), or
 *     empty
 * @param message one plain sentence
 */
public record ProfileProblem(String file, int line, String key, String message) {

    /** {@code file:line: key: message}, the form printed to users. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(file);
        if (line > 0) {
            text.append(':').append(line);
        }
        text.append(": ");
        if (!key.isEmpty()) {
            text.append(key).append(": ");
        }
        return text.append(message).toString();
    }
}
