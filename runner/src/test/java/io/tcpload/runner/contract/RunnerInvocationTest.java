package io.tcpload.runner.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.contract.RunnerInvocation.Control;
import io.tcpload.runner.contract.RunnerInvocation.Labels;
import io.tcpload.runner.contract.RunnerInvocation.Load;
import io.tcpload.runner.contract.RunnerInvocation.Outputs;
import io.tcpload.runner.contract.RunnerInvocation.Share;
import io.tcpload.runner.contract.RunnerInvocation.UrlRequest;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.rate.Stage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RunnerInvocationTest {
    private static final int GENERATED = 1_000;

    @Test
    void everyGeneratedInvocationReadsBackFromItsArguments() {
        Random random = new Random(20261201L);
        for (int i = 0; i < GENERATED; i++) {
            RunnerInvocation invocation = generate(random);
            List<String> args = invocation.toArgs();
            assertThat(RunnerInvocation.parse(args)).as("%s", args).isEqualTo(invocation);
        }
    }

    @Test
    void theFieldByFieldChecksAgreeWithTheRecordsAgainstTheirDefaults() {
        Random random = new Random(20261202L);
        int tlsAsked = 0;
        int tlsNot = 0;
        for (int i = 0; i < GENERATED; i++) {
            RunnerInvocation invocation = generate(random);
            RunnerInvocation.Tls tls = invocation.tls();
            boolean tlsDiffers =
                    !tls.equals(RunnerInvocation.Tls.NONE.withProvider(tls.provider()));
            assertThat(tls.any()).as("%s", tls).isEqualTo(tlsDiffers);
            RunnerInvocation.Search search = invocation.search();
            assertThat(search.anyFlag())
                    .as("%s", search)
                    .isEqualTo(!search.equals(RunnerInvocation.Search.NONE));
            UrlRequest request = invocation.request();
            assertThat(request.isCustom())
                    .as("%s", request)
                    .isEqualTo(!request.equals(UrlRequest.DEFAULT));
            if (tlsDiffers) {
                tlsAsked++;
            } else {
                tlsNot++;
            }
        }
        // Both answers occur, so the agreement is tested both ways.
        assertThat(tlsAsked).isPositive();
        assertThat(tlsNot).isPositive();
    }

    @Test
    void theDefaultsAreWhatTheCommandLineMeansWithoutFlags() {
        assertThat(RunnerInvocation.parse(List.of("bank.ini")))
                .isEqualTo(RunnerInvocation.of("bank.ini"));
        assertThat(RunnerInvocation.of("bank.ini").toArgs())
                .containsExactly("--threads=1", "--connections=1", "--timeout=5s", "bank.ini");
    }

    @Test
    void quantitiesTakeSuffixesAndUnits() {
        RunnerInvocation invocation =
                RunnerInvocation.parse(
                        List.of(
                                "-t2",
                                "-c1k",
                                "-d2m",
                                "-R2.5k",
                                "-T500ms",
                                "--warmup=1h",
                                "--pipeline",
                                "4",
                                "x.ini"));
        Load load = invocation.load();
        assertThat(load.threads()).isEqualTo(2);
        assertThat(load.connections()).isEqualTo(1_000);
        assertThat(load.durationMs()).hasValue(120_000);
        assertThat(load.rate()).hasValue(2_500);
        assertThat(load.timeoutMs()).isEqualTo(500);
        assertThat(load.warmupMs()).isEqualTo(3_600_000);
        assertThat(load.pipeline()).isEqualTo(4);
        assertThat(invocation.toArgs())
                .contains("--duration=2m", "--rate=2500", "--timeout=500ms", "--warmup=1h");
    }

    @Test
    void theTotalDurationIsTheStagesSumElseTheDurationElseTheDefault() {
        Load load = Load.DEFAULT;
        assertThat(load.totalDurationMs()).isEqualTo(RunnerInvocation.DEFAULT_DURATION_MS);
        assertThat(load.withDurationMs(OptionalLong.of(42)).totalDurationMs()).isEqualTo(42);
        assertThat(
                        load.withStages(List.of(new Stage(30_000, 10), new Stage(1_500, 0)))
                                .totalDurationMs())
                .isEqualTo(31_500);
    }

    @Test
    void aValueOfTheWrongFormIsRefusedNamingTheFlag() {
        assertThatThrownBy(() -> RunnerInvocation.parse(List.of("-dfast", "x.ini")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-d/--duration: 'fast' is not a duration");
        assertThatThrownBy(() -> RunnerInvocation.parse(List.of("--realtime", "x.ini")))
                .hasMessageContaining("--realtime");
        assertThatThrownBy(() -> RunnerInvocation.parse(List.of("--stages=1s", "x.ini")))
                .hasMessageContaining("--stages: stage 1 '1s' is not DURATION:RATE");
    }

    @Test
    void aProfileThatLooksLikeAFlagIsStillTheProfile() {
        RunnerInvocation invocation = RunnerInvocation.of("-odd.ini");
        assertThat(invocation.toArgs()).endsWith("--", "-odd.ini");
        assertThat(RunnerInvocation.parse(invocation.toArgs())).isEqualTo(invocation);
    }

    private static RunnerInvocation generate(Random random) {
        return new RunnerInvocation(
                maybe(random, () -> text(random)),
                load(random),
                new Share(
                        random.nextBoolean()
                                ? OptionalInt.of(random.nextInt(2_000) - 10)
                                : OptionalInt.empty(),
                        random.nextInt(1_100) - 5,
                        random.nextBoolean()),
                maybe(random, () -> target(random)),
                new UrlRequest(
                        random.nextBoolean() ? "GET" : text(random),
                        list(random, () -> text(random)),
                        maybe(random, () -> text(random)),
                        maybe(random, () -> Path.of("bodies", "b" + random.nextInt(100)))),
                new Outputs(
                        random.nextBoolean(),
                        random.nextBoolean(),
                        random.nextBoolean(),
                        maybe(random, () -> Path.of(random.nextBoolean() ? "-" : "out/r.json")),
                        maybe(
                                random,
                                () -> Path.of("out", "report " + random.nextInt(9) + ".html"))),
                new Control(
                        random.nextBoolean()
                                ? OptionalInt.of(random.nextInt(70_000) - 10)
                                : OptionalInt.empty(),
                        maybe(random, () -> random.nextBoolean() ? "0.0.0.0" : text(random)),
                        random.nextBoolean(),
                        random.nextBoolean()
                                ? OptionalInt.of(random.nextInt(100_000) - 5)
                                : OptionalInt.empty(),
                        new Labels(
                                maybe(random, () -> text(random)),
                                maybe(random, () -> text(random)),
                                maybe(random, () -> text(random)))),
                random.nextBoolean() ? "auto" : text(random),
                random.nextBoolean(),
                tls(random),
                search(random));
    }

    private static RunnerInvocation.Search search(Random random) {
        if (random.nextInt(3) == 0) {
            return RunnerInvocation.Search.NONE;
        }
        return new RunnerInvocation.Search(
                maybe(
                        random,
                        () ->
                                random.nextBoolean()
                                        ? "p99 < 50ms, errorRatio < 0.001"
                                        : text(random)),
                maybe(random, () -> new RunnerInvocation.Range(rate(random), rate(random))),
                random.nextBoolean()
                        ? OptionalLong.of(1 + random.nextInt(1_000_000))
                        : OptionalLong.empty(),
                random.nextBoolean()
                        ? OptionalLong.of(random.nextInt(100_000))
                        : OptionalLong.empty(),
                random.nextBoolean()
                        ? OptionalDouble.of(random.nextInt(1000) / 1000.0)
                        : OptionalDouble.empty(),
                random.nextBoolean());
    }

    private static RunnerInvocation.Tls tls(Random random) {
        if (random.nextInt(3) == 0) {
            return RunnerInvocation.Tls.NONE;
        }
        return new RunnerInvocation.Tls(
                random.nextBoolean(),
                maybe(
                        random,
                        () -> Path.of("/etc/tcpload/tls", "ca " + random.nextInt(9) + ".crt")),
                maybe(random, () -> Path.of("tls", "client.crt")),
                maybe(random, () -> Path.of("tls", "client-" + text(random) + ".key")),
                maybe(random, () -> text(random)),
                maybe(random, () -> random.nextBoolean() ? "pay.example" : text(random)),
                random.nextBoolean(),
                random.nextBoolean(),
                random.nextBoolean() ? "auto" : random.nextBoolean() ? "jdk" : text(random));
    }

    @Test
    void theTlsFlagsReadBackAsTheTlsRecord() {
        RunnerInvocation invocation =
                RunnerInvocation.parse(
                        List.of(
                                "--tls-ca",
                                "/etc/tcpload/tls/ca.crt",
                                "--tls-cert=/etc/tcpload/tls/tls.crt",
                                "--tls-key=/etc/tcpload/tls/tls.key",
                                "--tls-key-password-env=TCPLOAD_TLS_KEY_PASSWORD",
                                "--tls-server-name=pay.example",
                                "--no-tls-session-reuse",
                                "-k",
                                "bank.ini"));
        RunnerInvocation.Tls tls = invocation.tls();
        assertThat(tls.ca()).hasValue(Path.of("/etc/tcpload/tls/ca.crt"));
        assertThat(tls.cert()).hasValue(Path.of("/etc/tcpload/tls/tls.crt"));
        assertThat(tls.key()).hasValue(Path.of("/etc/tcpload/tls/tls.key"));
        assertThat(tls.keyPasswordEnv()).hasValue("TCPLOAD_TLS_KEY_PASSWORD");
        assertThat(tls.serverName()).hasValue("pay.example");
        assertThat(tls.noSessionReuse()).isTrue();
        assertThat(tls.insecure()).isFalse();
        assertThat(invocation.load().keepAlive()).as("-k stays keep-alive").isTrue();
        assertThat(invocation.toArgs())
                .contains(
                        "--tls-ca=/etc/tcpload/tls/ca.crt",
                        "--tls-key-password-env=TCPLOAD_TLS_KEY_PASSWORD",
                        "--no-tls-session-reuse");
    }

    private static Load load(Random random) {
        List<Stage> stages =
                random.nextInt(3) == 0
                        ? list(
                                random,
                                () -> new Stage(1 + random.nextInt(10_000_000), rate(random)))
                        : List.of();
        return new Load(
                random.nextInt(600) - 5,
                random.nextInt(5) == 0 ? random.nextLong() / 10_000 : random.nextInt(2_000_000) - 5,
                random.nextBoolean() ? OptionalLong.of(durationMs(random)) : OptionalLong.empty(),
                random.nextBoolean() ? OptionalDouble.of(rate(random)) : OptionalDouble.empty(),
                stages,
                random.nextInt(4) == 0 ? 0 : durationMs(random),
                durationMs(random),
                random.nextBoolean(),
                random.nextInt(3) == 0 ? 1 : random.nextInt(2_000_000) - 5);
    }

    /** Whole hours, minutes, seconds or any milliseconds, and some below zero. */
    private static long durationMs(Random random) {
        long[] units = {1, 1_000, 60_000, 3_600_000};
        long value = (long) random.nextInt(100_000) * units[random.nextInt(units.length)];
        return random.nextInt(10) == 0 ? -value : value;
    }

    private static double rate(Random random) {
        double rate = random.nextInt(1_000_000_000);
        return random.nextBoolean() ? rate / Math.pow(10, random.nextInt(4)) : rate;
    }

    private static Target target(Random random) {
        String host =
                switch (random.nextInt(3)) {
                    case 0 -> "::1";
                    case 1 -> "10.1.2." + random.nextInt(255);
                    default -> "pay-" + random.nextInt(1000) + ".svc.cluster.local";
                };
        return new Target(host, 1 + random.nextInt(65_535));
    }

    /**
     * Text of the kinds users put in values: spaces, '=', quotes, commas, leading dashes,
     * non-ASCII; never exactly {@code --}, which picocli reads as the end of the flags wherever it
     * stands.
     */
    private static String text(Random random) {
        String alphabet = "abcXYZ019 -_=:,;'\"/.\\éü漢";
        StringBuilder text = new StringBuilder();
        int length = 1 + random.nextInt(12);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString().equals("--") ? "-" : text.toString();
    }

    private static <T> Optional<T> maybe(Random random, Supplier<T> value) {
        return random.nextBoolean() ? Optional.of(value.get()) : Optional.empty();
    }

    private static <T> List<T> list(Random random, Supplier<T> element) {
        List<T> list = new ArrayList<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            list.add(element.get());
        }
        return list;
    }
}
