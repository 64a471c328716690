package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.lines;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.testing.Fifos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FILE parameters get their data from a {@link DataFileResolver}; the loader does no I/O. */
class DataFileResolverTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final byte[] PROFILE =
            lines(
                            "host = h",
                            "port = 1",
                            "[request]",
                            "req_body = $(length)$(A)$(B)",
                            "[parameters]",
                            "A = FILE, cards.txt",
                            "B = FILE, ./cards.txt")
                    .getBytes(US_ASCII);

    @Test
    void aResolverOverDataInMemoryGivesTheParametersTheirBytes() throws Exception {
        List<String> asked = new ArrayList<>();
        ImmutableBytes cards = ImmutableBytes.copyOf("1111\n2222\n".getBytes(US_ASCII));
        DataFileResolver memory =
                name -> {
                    asked.add(name);
                    return new DataFileResolver.Found("cards", cards);
                };

        Profile profile = ProfileLoader.parse(PROFILE, null, memory).profile();

        assertThat(profile.parameters())
                .containsExactly(
                        new ParameterSpec.File("A", 6, "cards", cards),
                        new ParameterSpec.File("B", 7, "cards", cards));
        assertThat(asked).containsExactly("cards.txt", "./cards.txt");
    }

    @Test
    void aNameUsedTwiceIsResolvedOnce() throws Exception {
        List<String> asked = new ArrayList<>();
        byte[] profile =
                new String(PROFILE, US_ASCII).replace("./cards", "cards").getBytes(US_ASCII);

        ProfileLoader.parse(
                profile,
                null,
                name -> {
                    asked.add(name);
                    return new DataFileResolver.Found(
                            name, ImmutableBytes.copyOf(new byte[] {'1'}));
                });

        assertThat(asked).containsExactly("cards.txt");
    }

    @Test
    void aRefusalIsReportedAsTheResolverWordsIt() {
        DataFileResolver none =
                name -> new DataFileResolver.Refused("the data file '" + name + "' is not here.");

        assertThatThrownBy(() -> ProfileLoader.parse(PROFILE, Path.of("p.ini"), none))
                .isInstanceOfSatisfying(
                        ProfileException.class,
                        e ->
                                assertThat(e.problems())
                                        .extracting(ProfileProblem::toString)
                                        .containsExactly(
                                                "p.ini:6: A: the data file 'cards.txt' is not here.",
                                                "p.ini:7: B: the data file './cards.txt' is not"
                                                        + " here."));
    }

    @Test
    void anEmptyDataFileIsRefusedNamingItsSource() {
        DataFileResolver empty =
                name ->
                        new DataFileResolver.Found(
                                "spec.files " + name, ImmutableBytes.copyOf(new byte[0]));

        assertThatThrownBy(() -> ProfileLoader.parse(PROFILE, Path.of("p.ini"), empty))
                .isInstanceOfSatisfying(
                        ProfileException.class,
                        e ->
                                assertThat(e.problems().get(0).message())
                                        .isEqualTo(
                                                "the data file spec.files cards.txt is empty; it"
                                                        + " needs at least one line."));
    }

    @Test
    void devZeroAsADataFileIsReadUpToTheCapThenRefused() {
        assumeTrue(Files.exists(Path.of("/dev/zero")));
        FileSystemDataFiles disk = new FileSystemDataFiles(null, 1 << 20);

        DataFileResolver.Lookup lookup =
                assertTimeoutPreemptively(BOUND, () -> disk.resolve("/dev/zero"));

        assertThat(lookup)
                .isEqualTo(
                        new DataFileResolver.Refused(
                                "the data file /dev/zero has more than the limit of 1048576 bytes."));
    }

    @Test
    void aProcFileAsADataFileIsReadAlthoughItClaimsToBeEmpty() {
        assumeTrue(Files.exists(Path.of("/proc/self/status")));

        DataFileResolver.Lookup lookup =
                DataFileResolver.besideProfile(null).resolve("/proc/self/status");

        assertThat(lookup)
                .isInstanceOfSatisfying(
                        DataFileResolver.Found.class,
                        found ->
                                assertThat(new String(found.content().toByteArray(), US_ASCII))
                                        .contains("Name:"));
    }

    @Test
    void aFifoBesideTheProfileIsReadAsItsDataFile(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("cards.txt"));
        byte[] data = "1111\n2222\n".getBytes(US_ASCII);
        try (Fifos.Writer writer = Fifos.write(fifo, data)) {
            DataFileResolver.Lookup lookup =
                    assertTimeoutPreemptively(
                            BOUND,
                            () ->
                                    DataFileResolver.besideProfile(folder.resolve("p.ini"))
                                            .resolve("cards.txt"));

            assertThat(lookup)
                    .isEqualTo(
                            new DataFileResolver.Found(
                                    fifo.toAbsolutePath().toString(), ImmutableBytes.copyOf(data)));
        }
    }
}
