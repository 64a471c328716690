package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.DryRunOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The runner's command line reads a dry run's flags as the contract writes them. */
class DryRunFlagsTest {
    @Test
    void theCommandReadsTheContractsFlagsBackIntoTheSameOptions() {
        PrintStream sink =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (DryRunOptions options :
                List.of(
                        DryRunOptions.NONE,
                        new DryRunOptions(
                                Optional.of(Path.of("/dev/termination-log")),
                                true,
                                List.of("cards.txt", "pins.txt"),
                                true))) {
            List<String> args = new ArrayList<>(options.toArgs());
            args.add("profile.ini");
            RunCommand command = new RunCommand(sink, sink);

            new CommandLine(command).parseArgs(args.toArray(String[]::new));

            assertThat(command.dryRun).isTrue();
            assertThat(command.dryRunOptions()).isEqualTo(options);
        }
    }
}
