package io.tcpload.runner.template;

import static io.tcpload.runner.testing.Corpus.buildText;
import static io.tcpload.runner.testing.Corpus.profile;
import static io.tcpload.runner.testing.Corpus.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FILE parameters: the lines of a data file, in turn, back to line 1 after the last. */
class LineCycleTest {

    private static ParameterSpec.File file(String content) {
        return new ParameterSpec.File(
                "F",
                7,
                "data.txt",
                ImmutableBytes.copyOf(content.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> take(LineCycle lines, int n) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int line = lines.next();
            ByteBuf out = Unpooled.buffer();
            lines.write(line, out);
            assertThat(out.readableBytes()).isEqualTo(lines.length(line));
            values.add(out.toString(StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void cyclesBackToTheFirstLineWithoutAnEmptyValue() {
        LineCycle lines = LineCycle.of(file("alpha\nbeta\ngamma\ndelta\n"), RunnerSlice.SINGLE);

        assertThat(take(lines, 9))
                .containsExactly(
                        "alpha", "beta", "gamma", "delta", "alpha", "beta", "gamma", "delta",
                        "alpha");
    }

    @Test
    void stripsCarriageReturnsAndCountsALastLineWithoutNewline() {
        LineCycle lines = LineCycle.of(file("a\r\nb\r\n\nc"), RunnerSlice.SINGLE);

        assertThat(lines.lineCount()).isEqualTo(4);
        assertThat(take(lines, 5)).containsExactly("a", "b", "", "c", "a");
    }

    @Test
    void keepsBytesAsTheyAre() {
        LineCycle lines = LineCycle.of(file("\u00e9l\u00e8ve\n"), RunnerSlice.SINGLE);

        assertThat(take(lines, 2)).containsExactly("\u00e9l\u00e8ve", "\u00e9l\u00e8ve");
        assertThat(lines.maxLineLength()).isEqualTo(7);
    }

    @Test
    void runnersCycleThroughDisjointBlocks() {
        ParameterSpec.File spec = file("1\n2\n3\n4\n5\n");

        assertThat(take(LineCycle.of(spec, new RunnerSlice(0, 2)), 5))
                .containsExactly("1", "2", "1", "2", "1");
        assertThat(take(LineCycle.of(spec, new RunnerSlice(1, 2)), 5))
                .containsExactly("3", "4", "5", "3", "4");
    }

    @Test
    void fewerLinesThanRunnersMeansEveryRunnerUsesAllLines() {
        ParameterSpec.File spec = file("x\ny\n");

        for (int runner = 0; runner < 3; runner++) {
            assertThat(take(LineCycle.of(spec, new RunnerSlice(runner, 3)), 3))
                    .containsExactly("x", "y", "x");
        }
    }

    @Test
    void anEmptyFileIsRejectedNamingParameterAndFile() {
        ParameterSpec.File spec = file("");

        assertThatThrownBy(() -> LineCycle.of(spec, RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parameter F (line 7): data file data.txt has no lines");
    }

    @Test
    void everyOccurrenceTakesTheNextLine() {
        RequestTemplate template =
                RequestTemplate.compile(
                        profile(
                                raw("$(length)", "$(F)/$(F)", 4, LengthType.BODY),
                                file("one\ntwo\nthree\n")),
                        RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_REQUEST);
        assertThat(buildText(template, 1)).isEqualTo("0007one/two");
        assertThat(buildText(template, 1)).isEqualTo("0009three/one");
        assertThat(buildText(template, 1)).isEqualTo("0009two/three");
    }
}
