package io.tcpload.runner.profile;

import java.util.Collection;
import java.util.Optional;

/** Finds the valid name a misspelt one was probably meant to be. */
public final class Suggestions {
    private static final int MAX_LENGTH = 64;

    private Suggestions() {}

    /** The closest candidate by edit distance, when it is close enough to be a likely typo. */
    public static Optional<String> nearest(String written, Collection<String> candidates) {
        if (written.length() > MAX_LENGTH) {
            return Optional.empty(); // nothing that long is a typo, and it would be slow to compare
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = editDistance(written.toLowerCase(), candidate.toLowerCase());
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        int allowed = Math.max(2, written.length() / 4);
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    /** Levenshtein distance, two rows at a time. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
