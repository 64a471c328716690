package io.tcpload.operator.local;

import static io.tcpload.operator.local.LocalRunTest.tcpload;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.local.LocalRunTest.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code tcpload run}'s outputs never overwrite what it reads: a {@code --json} or {@code --html}
 * that names the test file (the one file a local run reads: its profile, data files and TLS files
 * are ConfigMaps and Secrets in it) is refused before anything starts, as the runner refuses one
 * that names its profile, so that the result cannot replace the test it came from.
 */
class LocalOutputsTest {
    @TempDir Path folder;

    /**
     * The test file named by {@code how}: as given, through another path to the same folder, or by
     * a symbolic or a hard link to it.
     */
    private Path named(Path test, String how) throws Exception {
        return switch (how) {
            case "same" -> test;
            case "dotted" -> folder.resolve("sub").resolve("..").resolve(test.getFileName());
            case "symlink" -> Files.createSymbolicLink(folder.resolve("link.yaml"), test);
            case "hardlink" -> Files.createLink(folder.resolve("hard.yaml"), test);
            default -> throw new IllegalArgumentException(how);
        };
    }

    @ParameterizedTest(name = "{0} naming the test file ({1})")
    @CsvSource({
        "--json, same",
        "--html, same",
        "--json, dotted",
        "--html, symlink",
        "--json, hardlink",
    })
    void anOutputNamingTheTestFileIsRefusedBeforeAnythingStarts(String flag, String how)
            throws Exception {
        Files.createDirectories(folder.resolve("sub"));
        Path test = folder.resolve("test.yaml");
        String text = Files.readString(Examples.FOLDER.resolve("quickstart.yaml"));
        Files.writeString(test, text, StandardCharsets.UTF_8);
        Path output = named(test, how);

        Result result =
                tcpload(
                        "run",
                        "-f",
                        test.toString(),
                        "--demo-target",
                        "-d",
                        "1s",
                        flag,
                        output.toString());

        assertThat(result.exitStatus()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err())
                .isEqualTo(
                        "tcpload run: "
                                + flag
                                + ": "
                                + output
                                + " is the test file, which the result would overwrite; write it"
                                + " elsewhere\n");
        // Refused before the demo target or any runner started, and the test is as it was.
        assertThat(result.out()).isEmpty();
        assertThat(Files.readString(test, StandardCharsets.UTF_8)).isEqualTo(text);
    }
}
