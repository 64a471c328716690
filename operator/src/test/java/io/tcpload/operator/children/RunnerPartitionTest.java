package io.tcpload.operator.children;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.client.LoadConfig;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runners of one test never send the same trace number or terminal id: each takes its own block of
 * every COUNTER and offsets CONNECTID by its index times 1000000.
 */
class RunnerPartitionTest {
    private static final int RUNNERS = 3;
    private static final Pattern TRACE = Pattern.compile("<trace>(\\d+)</trace>");
    private static final Pattern TERM = Pattern.compile("<term>(\\d+)</term>");

    @Test
    void threeRunnersDrawDisjointCounterBlocksCoveringTheWholeRange() throws Exception {
        Profile profile = ProfileLoader.parse(Specs.PROFILE, Path.of("profile.ini")).profile();
        List<Set<Long>> traces = new ArrayList<>();
        for (int i = 0; i < RUNNERS; i++) {
            RequestTemplate template =
                    RequestTemplate.compile(profile, new RunnerSlice(i, RUNNERS));
            Set<Long> values = new HashSet<>();
            // 333 values per block: draw exactly one block's worth, before any wrap.
            for (int n = 0; n < 333; n++) {
                values.add(value(TRACE, request(template, 1)));
            }
            assertThat(values).hasSize(333);
            traces.add(values);
        }
        Set<Long> all = new HashSet<>();
        traces.forEach(all::addAll);
        assertThat(all).hasSize(999);
        assertThat(all).allMatch(value -> value >= 1 && value <= 999);
    }

    @Test
    void threeRunnersGiveDisjointConnectionIds() throws Exception {
        Profile profile = ProfileLoader.parse(Specs.PROFILE, Path.of("profile.ini")).profile();
        Set<Long> ids = new HashSet<>();
        int sent = 0;
        for (int i = 0; i < RUNNERS; i++) {
            RequestTemplate template =
                    RequestTemplate.compile(profile, new RunnerSlice(i, RUNNERS));
            LoadConfig config = new LoadConfig(2, 6, 1000, 1000, false, 1, i);
            for (int loop = 0; loop < config.threads(); loop++) {
                for (int c = 0; c < config.connectionsOfLoop(loop); c++) {
                    long id = config.connectionId(loop, c);
                    long sentId = value(TERM, request(template, id));
                    assertThat(sentId).isEqualTo(id);
                    assertThat(sentId / 1_000_000).isEqualTo(i);
                    ids.add(sentId);
                    sent++;
                }
            }
        }
        assertThat(sent).isEqualTo(18);
        assertThat(ids).hasSize(18);
    }

    private static String request(RequestTemplate template, long connectionId) {
        ByteBuf out = Unpooled.buffer();
        try {
            template.writeRequest(out, connectionId);
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }

    private static long value(Pattern pattern, String request) {
        Matcher matcher = pattern.matcher(request);
        assertThat(matcher.find()).as("%s in %s", pattern, request).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
