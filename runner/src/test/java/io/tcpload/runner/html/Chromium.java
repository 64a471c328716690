package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, run once per call with a fresh profile directory and everything that
 * would reach the network turned off, for the report tests.
 */
final class Chromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final long TIMEOUT_SECONDS = 90;

    private final Path dir;
    private int runs;

    /** Runs keep their profiles and output under {@code dir}. */
    Chromium(Path dir) {
        this.dir = dir;
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** The DOM of {@code page} after it loaded, as Chromium serialises it. */
    String dumpDom(Path page) throws IOException, InterruptedException {
        return run("--dump-dom", page.toUri().toString());
    }

    /** A PNG of {@code page} in a window {@code width} by {@code height} CSS pixels. */
    void screenshot(Path page, Path png, int width, int height)
            throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run(
                "--screenshot=" + png.toAbsolutePath(),
                "--window-size=" + width + "," + height,
                page.toUri().toString());
        assertThat(png).isNotEmptyFile();
    }

    /** Runs Chromium with no network use and returns what it printed on stdout. */
    private String run(String... args) throws IOException, InterruptedException {
        int run = ++runs;
        List<String> command =
                new ArrayList<>(
                        List.of(
                                BINARY.toString(),
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--user-data-dir=" + dir.resolve("profile-" + run)));
        command.addAll(List.of(args));
        Path stdout = dir.resolve("chromium-" + run + ".out");
        Path stderr = dir.resolve("chromium-" + run + ".err");
        Process process =
                new ProcessBuilder(command)
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
        try {
            assertThat(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .as("chromium finished within %d s", TIMEOUT_SECONDS)
                    .isTrue();
        } finally {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(process.exitValue()).as("chromium: %s", Files.readString(stderr)).isZero();
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}
