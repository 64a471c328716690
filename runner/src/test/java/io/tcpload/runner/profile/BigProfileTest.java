package io.tcpload.runner.profile;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tcpload.runner.template.RequestTemplate;
import io.tcpload.runner.template.RunnerSlice;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Profiles near the 16 MiB cap, in the shapes that make a careless loader quadratic: hundreds of
 * thousands of placeholders, a million parameters, a million problems. Each must load, or be
 * refused with a short list of problems, well within the bound (generous, for a loaded machine).
 */
class BigProfileTest {
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final int CAP = (int) ProfileLoader.MAX_FILE_BYTES;
    private static final String TCP = "host = h\nport = 1\n";
    private static final DataFileResolver ONE_LINE =
            name -> new DataFileResolver.Found(name, ImmutableBytes.copyOf(new byte[] {'1'}));

    /**
     * {@code head}, then {@code line(i)} for i = 0, 1, ... while the profile stays under the cap.
     */
    private static byte[] profile(String head, IntFunction<String> line, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(CAP);
        out.writeBytes(head.getBytes(US_ASCII));
        byte[] end = tail.getBytes(US_ASCII);
        for (int i = 0; ; i++) {
            byte[] next = line.apply(i).getBytes(US_ASCII);
            if (out.size() + next.length + end.length > CAP) {
                break;
            }
            out.writeBytes(next);
        }
        out.writeBytes(end);
        return out.toByteArray();
    }

    /** A parameter name for every i: P followed by i in base 36. */
    private static String name(int i) {
        return "P" + Integer.toString(i, 36);
    }

    private static LoadedProfile load(byte[] content) {
        return assertTimeoutPreemptively(
                BOUND, () -> ProfileLoader.parse(content, Path.of("big.ini"), ONE_LINE));
    }

    private static List<ProfileProblem> refused(byte[] content) {
        return assertTimeoutPreemptively(
                BOUND,
                () -> {
                    try {
                        ProfileLoader.parse(content, Path.of("big.ini"), ONE_LINE);
                    } catch (ProfileException e) {
                        return e.problems();
                    }
                    throw new AssertionError("expected the profile to be refused");
                });
    }

    @Test
    void hundredsOfThousandsOfUsesOfDeclaredParameters() {
        int uses = 400_000;
        StringBuilder body = new StringBuilder("[request]\nreq_body = $(length)");
        for (int i = 0; i < uses; i++) {
            body.append("$(").append(name(i)).append(')');
        }
        byte[] content =
                profile(TCP + body + "\n[parameters]\n", i -> name(i) + " = CONNECTID, %d\n", "");

        Profile profile = load(content).profile();
        RequestTemplate template =
                assertTimeoutPreemptively(
                        BOUND, () -> RequestTemplate.compile(profile, RunnerSlice.SINGLE));

        assertThat(profile.parameters().size()).isGreaterThanOrEqualTo(uses);
        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_CONNECTION);
    }

    @Test
    void hundredsOfThousandsOfUndeclaredUsesAreRefusedWithAShortList() {
        byte[] content =
                profile(
                        TCP + "[parameters]\n" + manyDeclared(100_000) + "[request]\nreq_body = ",
                        i -> "$(NOPE" + i + ")",
                        "\n");

        List<ProfileProblem> problems = refused(content);

        assertThat(problems).hasSizeLessThanOrEqualTo(101);
        assertThat(problems.get(0).message())
                .startsWith("$(NOPE0) is not a declared parameter; declared: P0, P1,")
                .hasSizeLessThan(300);
        assertThat(problems.get(problems.size() - 1).message()).contains("more errors");
    }

    private static String manyDeclared(int count) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < count; i++) {
            lines.append(name(i)).append(" = CONNECTID, %d\n");
        }
        return lines.toString();
    }

    @Test
    void aMillionParametersLoad() {
        byte[] content =
                profile(
                        TCP + "[request]\nreq_body = $(P0)\n[parameters]\n",
                        i -> name(i) + "=CONNECTID,%d\n",
                        "");

        assertThat(load(content).profile().parameters()).hasSizeGreaterThan(850_000);
    }

    @Test
    void aMillionFileParametersAskTheResolverOncePerName() {
        byte[] content =
                profile(
                        TCP + "[request]\nreq_body = $(P0)\n[parameters]\n",
                        i -> name(i) + "=FILE,d" + (i % 1000) + "\n",
                        "");
        Set<String> asked = new HashSet<>();
        AtomicInteger lookups = new AtomicInteger();
        DataFileResolver counting =
                name -> {
                    lookups.incrementAndGet();
                    asked.add(name);
                    return ONE_LINE.resolve(name);
                };

        Profile profile =
                assertTimeoutPreemptively(
                                BOUND,
                                () -> ProfileLoader.parse(content, Path.of("big.ini"), counting))
                        .profile();

        assertThat(profile.parameters()).hasSizeGreaterThan(700_000);
        assertThat(lookups.get()).isEqualTo(1000);
        assertThat(asked).hasSize(1000);
    }

    @Test
    void aMillionRepeatedNamesAreRefusedWithAShortList() {
        byte[] content =
                profile(
                        TCP + "[request]\nreq_body = x\n[parameters]\n",
                        i -> "A=CONNECTID,%d\n",
                        "");

        List<ProfileProblem> problems = refused(content);

        assertThat(problems).hasSize(101);
        assertThat(problems.get(0).toString())
                .isEqualTo(
                        "big.ini:7: A: is already declared on line 6; parameter names must differ.");
        assertThat(problems.get(100).toString())
                .matches("big\\.ini: [0-9]+ more errors are not listed\\.");
    }

    @Test
    void millionsOfLinesWithoutAnEqualsSignAreRefusedWithAShortList() {
        List<ProfileProblem> problems =
                refused(profile(TCP + "[request]\nreq_body = x\n", i -> "x\n", ""));

        assertThat(problems).hasSize(101);
        assertThat(problems.get(0).line()).isEqualTo(5);
        assertThat(problems.get(99).line()).isEqualTo(104);
    }

    @Test
    void aMillionRepeatedKeysLoadWithAShortListOfWarnings() {
        LoadedProfile loaded =
                load(profile(TCP + "[request]\n", i -> "req_body = x" + i + "\n", ""));

        assertThat(loaded.warnings()).hasSize(101);
        assertThat(loaded.warnings().get(100).message()).contains("more warnings are not listed");
    }

    @Test
    void aMillionUnknownKeysAreRefusedWithAShortList() {
        List<ProfileProblem> problems =
                refused(profile(TCP + "[request]\nreq_body = x\n", i -> "req_bdy = x\n", ""));

        assertThat(problems).hasSize(101);
        assertThat(problems.get(0).message()).contains("did you mean req_body?");
    }

    @Test
    void oneLineOfSixteenMegabytesLoads() {
        byte[] content = profile(TCP + "[request]\nreq_body = ", i -> "abcdefghij", "\n");

        Profile profile = load(content).profile();
        RequestTemplate template =
                assertTimeoutPreemptively(
                        BOUND, () -> RequestTemplate.compile(profile, RunnerSlice.SINGLE));

        assertThat(profile.request().bodyTemplate().length()).isGreaterThan(CAP - 100);
        assertThat(template.sizeHint()).isGreaterThan(CAP - 100);
    }

    @Test
    void millionsOfContinuedLinesLoadAsOneValue() {
        byte[] content =
                profile(
                        TCP + "[request]\nreq_body = \\\n",
                        i -> "$(P0)a\\\n",
                        "end\n[parameters]\nP0 = CONNECTID, %d\n");

        Profile profile = load(content).profile();
        RequestTemplate template =
                assertTimeoutPreemptively(
                        BOUND, () -> RequestTemplate.compile(profile, RunnerSlice.SINGLE));

        assertThat(profile.request().bodyTemplate()).endsWith("$(P0)a\nend");
        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_CONNECTION);
    }

    @Test
    void aMillionHttpHeaderLinesLoad() {
        byte[] content =
                profile(
                        TCP + "http_line = GET / HTTP/1.1\n[request]\n",
                        i -> "req_head = X-" + i + ": 1\n",
                        "");

        assertThat(load(content).profile().request().headTemplate()).endsWith("\r\n\r\n");
    }

    @Test
    void hundredsOfThousandsOfUndeclaredUsesInAContinuedBodyGiveTheirLines() {
        byte[] content = profile(TCP + "[request]\nreq_body = \\\n", i -> "$(NOPE)\\\n", "end\n");

        List<ProfileProblem> problems = refused(content);

        assertThat(problems).extracting(ProfileProblem::line).startsWith(5, 6, 7);
    }
}
