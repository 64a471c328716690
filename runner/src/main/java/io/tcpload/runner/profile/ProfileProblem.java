package io.tcpload.runner.profile;

import io.tcpload.runner.format.ByteText;

/**
 * One thing wrong (or doubtful) in a profile, said plainly and placed exactly. Profile text quoted
 * in the key or the message shows bytes that are not UTF-8 as {@code \xC4} ({@link
 * ByteText#display}), so a message about a GBK profile stays readable.
 *
 * @param file the INI file as the user named it
 * @param line the 1-based line, or 0 when the problem is about the file as a whole
 * @param key the section or key concerned ({@code [request]}, {@code req_body}, {@code SEQ}), or
 *     empty
 * @param message one plain sentence
 */
public record ProfileProblem(String file, int line, String key, String message) {
    public ProfileProblem {
        key = ByteText.display(key);
        message = ByteText.display(message);
    }

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
