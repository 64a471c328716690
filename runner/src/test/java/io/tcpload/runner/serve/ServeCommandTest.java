package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.testing.Corpus;
import java.io.DataInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine command() {
        CommandLine command = new CommandLine(new ServeCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command;
    }

    private static Path corpusFile(String name) throws URISyntaxException {
        return Path.of(ServeCommandTest.class.getResource("/wrktcp-corpus/" + name).toURI());
    }

    @Test
    void profileProblemsGoToStderrWithExitCodeTwo(@TempDir Path dir) throws Exception {
        Path ini = dir.resolve("broken.ini");
        Files.writeString(ini, "[common]\nhost = 127.0.0.1\n[request]\n");
        int exit = command().execute(ini.toString());
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("broken.ini");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void badOptionGivesExitCodeTwo() throws Exception {
        int exit = command().execute(corpusFile("01_tiny.ini").toString(), "--failure-rate", "2");
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("failure rate 2.0 is outside 0..1");
    }

    @Test
    void servesACorpusProfileUntilInterrupted() throws Exception {
        Path ini = corpusFile("01_tiny.ini");
        AtomicInteger exit = new AtomicInteger(-1);
        Thread runner =
                new Thread(() -> exit.set(command().execute(ini.toString(), "--port", "0")));
        runner.start();
        Pattern banner = Pattern.compile("serving (.+) on 127\\.0\\.0\\.1:(\\d+) \\(tcp\\)\\R");
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> banner.matcher(out.toString()).find());
        Matcher matcher = banner.matcher(out.toString());
        assertThat(matcher.find()).isTrue();
        assertThat(matcher.group(1)).isEqualTo(ini.toString());
        int port = Integer.parseInt(matcher.group(2));

        Profile profile = ProfileLoader.load(ini).profile();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(Corpus.bytes("01_tiny.req1.bin"));
            byte[] response = new byte[Corpus.bytes("01_tiny.rsp1.bin").length];
            new DataInputStream(socket.getInputStream()).readFully(response);
            assertThat(new String(response, StandardCharsets.US_ASCII))
                    .isEqualTo("00000013000000SUCCESS");
            assertThat(profile.response().codeSuccess()).isEqualTo("000000");
        }

        runner.interrupt();
        runner.join(10_000);
        assertThat(runner.isAlive()).isFalse();
        assertThat(exit.get()).isZero();
        assertThat(
                        Thread.getAllStackTraces().keySet().stream()
                                .filter(Thread::isAlive)
                                .filter(t -> t.getName().startsWith("tcpload-serve")))
                .isEmpty();
    }
}
