package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupedTest {
    @Test
    void oneRunnerIsNamedAndManyWithOneStoryAreOneGroup() {
        List<Grouped.Item> items = new ArrayList<>();
        for (int i = 0; i < 998; i++) {
            items.add(new Grouped.Item(i, "runner " + i + " (pod p-" + i + "):", "Unschedulable"));
        }
        items.add(new Grouped.Item(998, "runner 998 (pod p-998):", "ImagePullBackOff"));

        assertThat(Grouped.join(items))
                .isEqualTo(
                        "998 runners (0, 1, 2, 3, 4, ...) Unschedulable; runner 998 (pod p-998):"
                                + " ImagePullBackOff");
    }

    @Test
    void pastTheBoundTheRestAreCounted() {
        List<Grouped.Item> items = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            items.add(new Grouped.Item(i, "runner " + i, "lost at " + i + " s: OOMKilled"));
        }

        String text = Grouped.join(items);

        assertThat(text)
                .startsWith("runner 0 lost at 0 s: OOMKilled; runner 1 lost at 1 s: OOMKilled")
                .endsWith("runner 9 lost at 9 s: OOMKilled; and 990 more runners");
        assertThat(Grouped.join(items.subList(0, 11))).endsWith("; and 1 more runner");
    }
}
