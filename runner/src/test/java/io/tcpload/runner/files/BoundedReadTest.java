package io.tcpload.runner.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.testing.Fifos;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedReadTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final long CAP = 1 << 20;

    @Test
    void aRegularFileUpToTheCapIsReadWhole(@TempDir Path folder) throws Exception {
        Path file = Files.write(folder.resolve("a.txt"), new byte[(int) CAP]);

        assertThat(BoundedRead.readAtMost(file, CAP, "data file")).hasSize((int) CAP);
    }

    @Test
    void aRegularFileOverTheCapIsRefusedWithItsSize(@TempDir Path folder) throws Exception {
        Path file = Files.write(folder.resolve("a.txt"), new byte[(int) CAP + 1]);

        assertThatThrownBy(() -> BoundedRead.readAtMost(file, CAP, "data file"))
                .isInstanceOf(UnreadableFileException.class)
                .hasMessage(
                        "the data file "
                                + file
                                + " has 1048577 bytes, more than the limit of 1048576.");
    }

    @Test
    void devZeroIsReadUpToTheCapThenRefused() {
        Path zero = Path.of("/dev/zero");
        assumeTrue(Files.exists(zero));

        UnreadableFileException e = refused(zero);

        assertThat(e)
                .hasMessage("the profile file /dev/zero has more than the limit of 1048576 bytes.");
        assertThat(e.withoutPath())
                .isEqualTo("the profile file has more than the limit of 1048576 bytes.");
    }

    @Test
    void devUrandomIsReadUpToTheCapThenRefused() {
        Path random = Path.of("/dev/urandom");
        assumeTrue(Files.exists(random));

        assertThat(refused(random))
                .hasMessageContaining("has more than the limit of 1048576 bytes");
    }

    @Test
    void aProcFileIsReadAlthoughItClaimsToBeEmpty() throws Exception {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.exists(status));
        assertThat(Files.size(status)).isZero();

        byte[] bytes = BoundedRead.readAtMost(status, CAP, "profile file");

        assertThat(new String(bytes, StandardCharsets.US_ASCII)).contains("Name:");
    }

    @Test
    void aFifoThatNeverEndsIsReadUpToTheCapThenRefused(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("endless"));
        try (Fifos.Writer writer = Fifos.writeEndlessly(fifo)) {
            assertThat(refused(fifo)).hasMessageContaining("has more than the limit");
        }
    }

    @Test
    void aFifoThatEndsIsReadWhole(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("short"));
        byte[] content = "host = 127.0.0.1\n".getBytes(StandardCharsets.US_ASCII);
        try (Fifos.Writer writer = Fifos.write(fifo, content)) {
            byte[] read =
                    assertTimeoutPreemptively(
                            BOUND, () -> BoundedRead.readAtMost(fifo, CAP, "profile file"));
            assertThat(read).isEqualTo(content);
        }
    }

    @Test
    void aMissingFileAFolderAndAnUnreadableFileSaySo(@TempDir Path folder) throws Exception {
        Path missing = folder.resolve("missing.ini");
        assertThatThrownBy(() -> BoundedRead.readAtMost(missing, CAP, "profile file"))
                .hasMessage("the profile file " + missing + " does not exist.");
        assertThatThrownBy(() -> BoundedRead.readAtMost(folder, CAP, "profile file"))
                .hasMessage("the profile file " + folder + " is a folder, not a file.");

        Path locked = Files.writeString(folder.resolve("locked.ini"), "x");
        assumeTrue(locked.toFile().setReadable(false, false) && !Files.isReadable(locked));
        assertThatThrownBy(() -> BoundedRead.readAtMost(locked, CAP, "data file"))
                .hasMessage("the data file " + locked + " cannot be read (permission denied).");
    }

    @Test
    void aCapBeyondWhatAnArrayHoldsIsAMistake() {
        assertThatThrownBy(() -> BoundedRead.readAtMost(Path.of("x"), -1, "file"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BoundedRead.readAtMost(Path.of("x"), 1L << 31, "file"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static UnreadableFileException refused(Path file) {
        return assertTimeoutPreemptively(
                BOUND,
                () -> {
                    try {
                        BoundedRead.readAtMost(file, CAP, "profile file");
                    } catch (UnreadableFileException e) {
                        return e;
                    }
                    throw new AssertionError(file + " was read although it is over the cap");
                });
    }
}
