package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;

/** Builds profile text line by line for tests, and loads it. */
final class ProfileTexts {
    /** The file name used in messages; its folder is the working folder. */
    static final Path FILE = Path.of("test.ini");

    private ProfileTexts() {}

    static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    /** A minimal valid raw TCP profile followed by {@code more} lines. */
    static String tcp(String... more) {
        return lines("host = 127.0.0.1", "port = 9000", "[request]", "req_body = hello")
                + (more.length == 0 ? "" : lines(more));
    }

    static LoadedProfile load(String text) throws ProfileException {
        return ProfileLoader.parse(text, FILE);
    }

    static LoadedProfile load(String text, Path file) throws ProfileException {
        return ProfileLoader.parse(text, file);
    }

    /** The problems of a profile that must not load. */
    static List<ProfileProblem> errors(String text) {
        return errors(text, FILE);
    }

    static List<ProfileProblem> errors(String text, Path file) {
        try {
            LoadedProfile loaded = ProfileLoader.parse(text, file);
            return fail("expected the profile to be refused, but it loaded: " + loaded.profile());
        } catch (ProfileException e) {
            return e.problems();
        }
    }

    /** The problems of a file that must not load. */
    static List<ProfileProblem> fileErrors(Path file) {
        try {
            LoadedProfile loaded = ProfileLoader.load(file);
            return fail("expected the profile to be refused, but it loaded: " + loaded.profile());
        } catch (ProfileException e) {
            return e.problems();
        }
    }
}
