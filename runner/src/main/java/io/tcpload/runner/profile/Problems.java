package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects the errors and warnings found while loading one profile, so that every problem is
 * reported at once instead of stopping at the first. Not thread-safe: one per load.
 */
final class Problems {
    private final String file;
    private final List<ProfileProblem> errors = new ArrayList<>();
    private final List<ProfileProblem> warnings = new ArrayList<>();

    Problems(String file) {
        this.file = file;
    }

    void error(int line, String key, String message) {
        errors.add(new ProfileProblem(file, line, key, message));
    }

    void warn(int line, String key, String message) {
        warnings.add(new ProfileProblem(file, line, key, message));
    }

    /** Throws with every error, in line order, when there is at least one. */
    void throwIfErrors() throws ProfileException {
        if (!errors.isEmpty()) {
            throw new ProfileException(inLineOrder(errors));
        }
    }

    List<ProfileProblem> warnings() {
        return inLineOrder(warnings);
    }

    private static List<ProfileProblem> inLineOrder(List<ProfileProblem> problems) {
        // Stable sort: problems found on the same line keep the order they were found in.
        List<ProfileProblem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingInt(ProfileProblem::line));
        return List.copyOf(sorted);
    }
}
