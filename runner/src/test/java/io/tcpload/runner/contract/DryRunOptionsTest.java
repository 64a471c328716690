package io.tcpload.runner.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A dry run's flags, written and read back as one round trip, and taken off the load's. */
class DryRunOptionsTest {
    private static final List<DryRunOptions> SOME =
            List.of(
                    DryRunOptions.NONE,
                    new DryRunOptions(
                            Optional.of(Path.of("/dev/termination-log")), true, List.of(), true),
                    new DryRunOptions(
                            Optional.empty(), false, List.of("cards.txt", "pins.txt"), false),
                    new DryRunOptions(
                            Optional.of(Path.of("dry.json")), true, List.of("cards.txt"), true));

    @Test
    void theFlagsReadBackAsTheOptionsTheyWereWrittenFrom() {
        for (DryRunOptions options : SOME) {
            assertThat(options.toArgs()).startsWith("--test");
            assertThat(DryRunOptions.parse(options.toArgs())).contains(options);
        }
        assertThat(SOME.get(3).toArgs())
                .containsExactly(
                        "--test",
                        "--test-json=dry.json",
                        "--test-mask-env",
                        "--test-mask-file=cards.txt",
                        "--test-mask-extracted");
        assertThat(DryRunOptions.NONE.masks()).isFalse();
        assertThat(SOME.get(2).masks()).isTrue();
    }

    @Test
    void theLoadsArgumentsAreWhatIsLeftAndHaveNoDryRun() {
        List<String> load = List.of("--threads=2", "--connections=4", "/etc/profile.ini");
        List<String> args = new ArrayList<>(SOME.get(3).toArgs());
        args.addAll(load);

        assertThat(DryRunOptions.withoutDryRun(args)).isEqualTo(load);
        assertThat(DryRunOptions.parse(load)).isEmpty();
    }
}
