package io.tcpload.operator.status;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What happened to many runners, said in a bounded sentence: runners with the same story are one
 * group ({@code 998 runners (0, 1, 2, 3, 4, ...): Unschedulable: ...}), and past a number of groups
 * the rest are counted, so that a status stays small at 1,000 runners (a message per runner would
 * not). Pure.
 */
final class Grouped {
    /** At most this many groups are told; the rest are counted. */
    static final int MAX_GROUPS = 10;

    /** At most this many runner indexes are listed for a group. */
    static final int MAX_INDEXES = 5;

    /**
     * One runner's story.
     *
     * @param index the runner's index
     * @param who how a runner alone is named ({@code runner 2 (pod NAME)})
     * @param why what happened to it
     */
    record Item(int index, String who, String why) {}

    private Grouped() {}

    /** The items as one text, their groups joined by {@code "; "}, in the order first met. */
    static String join(List<Item> items) {
        Map<String, List<Item>> byWhy = new LinkedHashMap<>();
        for (Item item : items) {
            byWhy.computeIfAbsent(item.why(), why -> new ArrayList<>()).add(item);
        }
        List<String> told = new ArrayList<>();
        int untold = 0;
        for (Map.Entry<String, List<Item>> group : byWhy.entrySet()) {
            List<Item> members = group.getValue();
            if (told.size() == MAX_GROUPS) {
                untold += members.size();
                continue;
            }
            if (members.size() == 1) {
                told.add(members.get(0).who() + " " + group.getKey());
                continue;
            }
            String indexes =
                    members.stream()
                            .limit(MAX_INDEXES)
                            .map(item -> Integer.toString(item.index()))
                            .collect(Collectors.joining(", "));
            told.add(
                    members.size()
                            + " runners ("
                            + indexes
                            + (members.size() > MAX_INDEXES ? ", ..." : "")
                            + ") "
                            + group.getKey());
        }
        if (untold > 0) {
            told.add("and " + untold + " more " + (untold == 1 ? "runner" : "runners"));
        }
        return String.join("; ", told);
    }
}
