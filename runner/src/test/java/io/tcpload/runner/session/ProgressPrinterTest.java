package io.tcpload.runner.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.SecondSample;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgressPrinterTest {
    private static Progress second(int n, List<ErrorCount> errors) {
        Counts counts = new Counts(10, 10, 0, 0, 0, 0, 0, 100, 100, 0);
        return new Progress(
                new SecondSample(n, counts, 100, 100, 200, 200),
                counts,
                Histograms.create(),
                Histograms.create(),
                errors,
                2);
    }

    private static String print(boolean terminal) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ProgressPrinter printer = new ProgressPrinter(stream, terminal);
            printer.onSecond(second(1, List.of(new ErrorCount("read: connection reset", 3))));
            printer.onSecond(second(2, List.of()));
            printer.onSecond(second(3, List.of()));
            printer.finished();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void inALogEverySecondIsALineOfItsOwn() {
        String log = print(false);

        assertThat(log).doesNotContain("\r");
        List<String> lines = log.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).isEqualTo("  3 x read: connection reset");
        assertThat(lines.subList(1, 4)).allMatch(line -> line.contains("Time:"));
        assertThat(log).endsWith("\n");
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlace() {
        String screen = print(true);

        assertThat(screen).startsWith("\r  3 x read: connection reset\n\r");
        assertThat(screen.split("\n", -1)).hasSize(3);
        assertThat(screen).endsWith("\n");
    }
}
