package io.tcpload.runner.template;

import static io.tcpload.runner.template.TestProfiles.buildText;
import static io.tcpload.runner.template.TestProfiles.profile;
import static io.tcpload.runner.template.TestProfiles.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FILE parameters: the lines of a data file, in turn, back to line 1 after the last. */
class LineCycleTest {

    @TempDir Path dir;

    private ParameterSpec.File file(String content) throws IOException {
        Path path = Files.createTempFile(dir, "data", ".txt");
        Files.write(path, content.getBytes(StandardCharsets.UTF_8));
        return new ParameterSpec.File("F", 7, path);
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
    void cyclesBackToTheFirstLineWithoutAnEmptyValue() throws IOException {
        LineCycle lines = LineCycle.load(file("alpha\nbeta\ngamma\ndelta\n"), RunnerSlice.SINGLE);

        assertThat(take(lines, 9))
                .containsExactly(
                        "alpha", "beta", "gamma", "delta", "alpha", "beta", "gamma", "delta",
                        "alpha");
    }

    @Test
    void stripsCarriageReturnsAndCountsALastLineWithoutNewline() throws IOException {
        LineCycle lines = LineCycle.load(file("a\r\nb\r\n\nc"), RunnerSlice.SINGLE);

        assertThat(lines.lineCount()).isEqualTo(4);
        assertThat(take(lines, 5)).containsExactly("a", "b", "", "c", "a");
    }

    @Test
    void keepsBytesAsTheyAre() throws IOException {
        LineCycle lines = LineCycle.load(file("\u00e9l\u00e8ve\n"), RunnerSlice.SINGLE);

        assertThat(take(lines, 2)).containsExactly("\u00e9l\u00e8ve", "\u00e9l\u00e8ve");
        assertThat(lines.maxLineLength()).isEqualTo(7);
    }

    @Test
    void runnersCycleThroughDisjointBlocks() throws IOException {
        ParameterSpec.File spec = file("1\n2\n3\n4\n5\n");

        assertThat(take(LineCycle.load(spec, new RunnerSlice(0, 2)), 5))
                .containsExactly("1", "2", "1", "2", "1");
        assertThat(take(LineCycle.load(spec, new RunnerSlice(1, 2)), 5))
                .containsExactly("3", "4", "5", "3", "4");
    }

    @Test
    void fewerLinesThanRunnersMeansEveryRunnerUsesAllLines() throws IOException {
        ParameterSpec.File spec = file("x\ny\n");

        for (int runner = 0; runner < 3; runner++) {
            assertThat(take(LineCycle.load(spec, new RunnerSlice(runner, 3)), 3))
                    .containsExactly("x", "y", "x");
        }
    }

    @Test
    void anEmptyFileIsRejectedNamingParameterAndFile() throws IOException {
        ParameterSpec.File spec = file("");

        assertThatThrownBy(() -> LineCycle.load(spec, RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parameter F (line 7): data file " + spec.path() + " has no lines");
    }

    @Test
    void aMissingFileIsRejectedNamingIt() {
        Path missing = dir.resolve("missing.txt");

        assertThatThrownBy(
                        () ->
                                LineCycle.load(
                                        new ParameterSpec.File("F", 3, missing),
                                        RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "parameter F (line 3): cannot read data file " + missing + ":");
    }

    @Test
    void everyOccurrenceTakesTheNextLine() throws IOException {
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
