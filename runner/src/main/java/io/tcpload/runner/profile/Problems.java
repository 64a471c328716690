package io.tcpload.runner.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Supplier;

/**
 * Collects the errors and warnings found while loading one profile, so that every problem is
 * reported at once instead of stopping at the first. A profile of millions of bad lines would give
 * millions of problems, more than anyone reads and more than memory should hold: only the {@link
 * #MAX_LISTED} first of each kind, by line, are kept, and a last line says how many more there
 * were. Not thread-safe: one per load.
 */
final class Problems {
    /** The most errors (and the most warnings) listed. */
    static final int MAX_LISTED = 100;

    private final String file;
    private final Kept errors = new Kept();
    private final Kept warnings = new Kept();

    Problems(String file) {
        this.file = file;
    }

    void error(int line, String key, String message) {
        errors.add(line, key, () -> message);
    }

    /** An error whose message is only worded if it is listed: wording it can take a while. */
    void error(int line, String key, Supplier<String> message) {
        errors.add(line, key, message);
    }

    void warn(int line, String key, String message) {
        warnings.add(line, key, () -> message);
    }

    boolean hasErrors() {
        return errors.count > 0;
    }

    /** Throws with the errors, in line order (those of no line last), when there is one. */
    void throwIfErrors() throws ProfileException {
        if (errors.count > 0) {
            throw new ProfileException(errors.inLineOrder("error"));
        }
    }

    List<ProfileProblem> warnings() {
        return warnings.inLineOrder("warning");
    }

    /** The problems of one kind with the lowest lines, and how many there were in all. */
    private final class Kept {
        private record Numbered(ProfileProblem problem, long order) {}

        /**
         * Problems on the same line keep the order they were found in. Those of no line (a required
         * key missing, say) come last: they are most often what a problem on a line causes (a
         * misspelt section header leaves its keys unread), so the line comes first.
         */
        private static final Comparator<Numbered> IN_LINE_ORDER =
                Comparator.<Numbered>comparingInt(n -> sortLine(n.problem().line()))
                        .thenComparingLong(Numbered::order);

        private static int sortLine(int line) {
            return line == 0 ? Integer.MAX_VALUE : line;
        }

        /** The kept problems, the one with the highest line first, so it is the one dropped. */
        private final PriorityQueue<Numbered> kept =
                new PriorityQueue<>(MAX_LISTED + 1, IN_LINE_ORDER.reversed());

        private long count;

        void add(int line, String key, Supplier<String> message) {
            long order = count++;
            // Found later than the kept ones, so on the same line it would be dropped too.
            if (kept.size() == MAX_LISTED
                    && sortLine(line) >= sortLine(kept.peek().problem().line())) {
                return;
            }
            kept.add(new Numbered(new ProfileProblem(file, line, key, message.get()), order));
            if (kept.size() > MAX_LISTED) {
                kept.poll();
            }
        }

        List<ProfileProblem> inLineOrder(String kind) {
            List<Numbered> sorted = new ArrayList<>(kept);
            sorted.sort(IN_LINE_ORDER);
            List<ProfileProblem> problems = new ArrayList<>();
            sorted.forEach(n -> problems.add(n.problem()));
            long more = count - kept.size();
            if (more > 0) {
                String sentence =
                        more == 1
                                ? "1 more " + kind + " is not listed."
                                : more + " more " + kind + "s are not listed.";
                problems.add(new ProfileProblem(file, 0, "", sentence));
            }
            return List.copyOf(problems);
        }
    }
}
