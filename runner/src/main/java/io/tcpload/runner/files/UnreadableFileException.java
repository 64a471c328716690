package io.tcpload.runner.files;

import java.nio.file.Path;

/**
 * An input file that cannot be used: missing, a folder, unreadable or too large. The message is one
 * plain sentence, {@code the data file /x/cards.txt does not exist.}; {@link #withoutPath()} says
 * the same for callers that already name the file ({@code cards.txt: the data file does not
 * exist.}).
 */
public final class UnreadableFileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String what;
    private final String problem;

    UnreadableFileException(Path file, String what, String problem) {
        super("the " + what + " " + file + " " + problem + ".");
        this.file = file;
        this.what = what;
        this.problem = problem;
    }

    /** The file as the caller named it. */
    public Path file() {
        return file;
    }

    /** The message without the file's path: {@code the profile file does not exist.} */
    public String withoutPath() {
        return "the " + what + " " + problem + ".";
    }
}
