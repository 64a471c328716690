package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.testing.Fifos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Profiles that are not regular files: read with the profile's size cap like any file, then refused
 * with a clear message and exit status 2, never an out-of-memory crash.
 */
class SpecialInputFilesTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    private static void assertRefused(CliResult result, String... fragments) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains(fragments).doesNotContain("\tat ", "Exception", "Error:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/dev/zero", "/dev/urandom"})
    void anEndlessDeviceIsRefusedAtTheCap(String device) {
        assumeTrue(Files.exists(Path.of(device)));

        CliResult result = assertTimeoutPreemptively(BOUND, () -> CliResult.run("-d1s", device));

        assertRefused(
                result, device + ": the profile file has more than the limit of 16777216 bytes.");
    }

    @Test
    void anEndlessFifoIsRefusedAtTheCap(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("endless.ini"));
        try (Fifos.Writer writer = Fifos.writeEndlessly(fifo)) {
            CliResult result =
                    assertTimeoutPreemptively(BOUND, () -> CliResult.run("-d1s", fifo.toString()));

            assertRefused(result, "endless.ini: the profile file has more than the limit");
        }
    }

    @Test
    void anEndlessBodyFileIsRefusedAtTheCap() {
        assumeTrue(Files.exists(Path.of("/dev/zero")));

        CliResult result =
                assertTimeoutPreemptively(
                        BOUND,
                        () ->
                                CliResult.run(
                                        "-d1s", "--body-file=/dev/zero", "http://127.0.0.1:9/"));

        assertRefused(
                result, "--body-file: the body file /dev/zero has more than the limit of 16777216");
    }

    @Test
    void aProcFileIsReadAndRefusedForWhatItSays() {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.exists(status));

        assertRefused(CliResult.run("-d1s", status.toString()), "/proc/self/status:1: ");
    }
}
