package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./tcpload} launcher as a user meets it right after a build: the first run records the
 * start-up archive in a JVM of its own, and neither that nor any later run may cost the user a run,
 * an exit status or a crash file. Every example runs through it against the demo target.
 */
@Timeout(300)
class LauncherIT {
    private static final Path ROOT = Examples.FOLDER.getParent();
    private static final Path ARCHIVE = ROOT.resolve("operator/target/tcpload.jsa");

    /** Names the JVM of the last recording, failed or not. */
    private static final Path ARCHIVE_JVM = ROOT.resolve("operator/target/tcpload.jsa.jvm");

    private static final String QUICKSTART_PROFILE =
            ROOT.resolve("examples/profiles/quickstart.ini").toString();

    @TempDir Path workDir;

    record Run(int exitStatus, String out, String err) {}

    private Run tcpload(String... args) throws IOException, InterruptedException {
        return tcpload(Map.of(), args);
    }

    private Run tcpload(Map<String, String> environment, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("tcpload").toString());
        command.addAll(List.of(args));
        Path out = workDir.resolve("out.txt");
        Path err = workDir.resolve("err.txt");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(workDir.toFile())
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        try {
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("./tcpload ends").isTrue();
        } finally {
            process.destroyForcibly();
        }
        return new Run(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void everyExampleRunsThroughTheLauncherRightAfterABuild() throws Exception {
        assertThat(ROOT.resolve("operator/target/tcpload.jar"))
                .as("the jar of this build")
                .exists();
        // As right after a build: no archive yet.
        forgetArchive();
        boolean first = true;
        // A capacity search takes no --duration: ExamplesTest runs it.
        for (Path example : Examples.loads()) {
            Run run = tcpload("run", "-f", example.toString(), "--demo-target", "-d", "1s");

            assertThat(run.exitStatus()).as(example + "\n" + run.out() + run.err()).isZero();
            assertThat(run.out()).contains("  phase: Succeeded\n");
            if (first) {
                assertThat(run.err()).contains("recording a start-up archive");
                assertThat(ARCHIVE).as("recorded by the first run").exists();
                first = false;
            } else {
                assertThat(run.err()).doesNotContain("recording a start-up archive");
            }
        }
        Run runner = tcpload("runner", "--demo-target", "-c2", "-d1s", QUICKSTART_PROFILE);
        assertThat(runner.exitStatus()).as(runner.err()).isZero();
        assertThat(runner.out()).containsPattern("(?m)^ +[1-9][0-9]* requests in ");
        try (Stream<Path> left = Files.list(workDir)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("no crash files in the user's folder")
                    .noneMatch(name -> name.startsWith("hs_err") || name.startsWith("core"));
        }
    }

    /**
     * A run that uses the start-up archive still compiles its hot code. An archive must hold no JIT
     * state of the run that recorded it: Java 17's dynamic archive, written at the exit of a run,
     * could keep a method marked as queued for compilation, and every run from it then took the
     * method as queued and never compiled it (the decoder's read path, interpreted for the whole
     * run). The static archive is written by a JVM that runs none of the code. Recorded beside two
     * busy threads, where that mark was likeliest; read off the JIT's tiered events: a method
     * called often and never compiled while both compile queues are empty.
     */
    @Test
    void aRunWithTheArchiveCompilesItsHotMethods() throws Exception {
        forgetArchive();
        Run version = whileBusy(() -> tcpload("--version"));
        assertThat(version.exitStatus()).as(version.err()).isZero();
        assertThat(ARCHIVE).exists();

        Run run =
                tcpload(
                        Map.of(
                                "TCPLOAD_JAVA_OPTS",
                                "-Xlog:cds=info -XX:+UnlockDiagnosticVMOptions"
                                        + " -XX:+PrintTieredEvents"),
                        "runner",
                        "--demo-target",
                        "-k",
                        "-c2",
                        "-d3s",
                        QUICKSTART_PROFILE);

        assertThat(run.exitStatus()).as(run.err()).isZero();
        assertThat(run.out()).as("the archive is used").contains("Mapped static");
        assertThat(neverCompiledHotMethods(run.out())).isEmpty();
    }

    /**
     * The archive holds the command line's parser: picocli's classes (class file version 49, which
     * Java 17's dynamic archive leaves out) and the runner's options, which a run would otherwise
     * load, parse and verify from the jar at every start.
     */
    @Test
    void theArchiveHoldsTheCommandLineParser() throws Exception {
        Run first = tcpload("runner", "--version");
        assertThat(first.exitStatus()).as(first.err()).isZero();
        assertThat(ARCHIVE).exists();

        Run run =
                tcpload(
                        Map.of("TCPLOAD_JAVA_OPTS", "-Xlog:class+load=info"),
                        "runner",
                        "--demo-target",
                        "-c2",
                        "-d1s",
                        QUICKSTART_PROFILE);

        assertThat(run.exitStatus()).as(run.err()).isZero();
        for (String name :
                List.of(
                        "picocli.CommandLine",
                        "picocli.CommandLine$Model$OptionSpec",
                        "io.tcpload.runner.contract.InvocationOptions",
                        "io.tcpload.runner.client.ConnectionSlot")) {
            assertThat(run.out())
                    .as(name)
                    .containsPattern(
                            "(?m)\\] " + Pattern.quote(name) + " source: shared objects file");
        }
    }

    /** As right after a build: no archive, and no recording tried. */
    private static void forgetArchive() throws IOException {
        Files.deleteIfExists(ARCHIVE);
        Files.deleteIfExists(ARCHIVE_JVM);
    }

    /**
     * A recording that fails (here: no scratch folder can be made) costs the run nothing, and is
     * not tried again on every run: a machine where it cannot work would pay seconds a run.
     */
    @Test
    void aFailedRecordingIsNotTriedOnEveryRun() throws Exception {
        forgetArchive();
        Map<String, String> noTemp = Map.of("TMPDIR", workDir.resolve("missing").toString());
        try {
            Run first = tcpload(noTemp, "runner", "--version");
            assertThat(first.exitStatus()).as(first.err()).isZero();
            assertThat(first.err()).contains("recording a start-up archive");
            assertThat(ARCHIVE).doesNotExist();

            Run second = tcpload(noTemp, "runner", "--version");
            assertThat(second.exitStatus()).as(second.err()).isZero();
            assertThat(second.err()).doesNotContain("recording");
        } finally {
            forgetArchive();
        }
    }

    /** Runs {@code call} while two threads of this JVM keep the machine's cores busy. */
    private static Run whileBusy(Callable<Run> call) throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread spinner =
                    new Thread(
                            () -> {
                                while (!done.get()) {
                                    // spins
                                }
                            });
            spinner.setDaemon(true);
            spinner.start();
            spinners.add(spinner);
        }
        try {
            return call.call();
        } finally {
            done.set(true);
            for (Thread spinner : spinners) {
                spinner.join();
            }
        }
    }

    private static final Pattern NEVER_COMPILED =
            Pattern.compile(
                    "\\[call level=0 \\[([^\\]]+)\\] .*queues=0,0 .*total=(\\d+),\\d+ .*max"
                            + " levels=0,0 .*status=in-queue");

    /** Methods called at least 20,000 times, marked queued while no compile was queued. */
    private static Set<String> neverCompiledHotMethods(String tieredEvents) {
        Set<String> stuck = new LinkedHashSet<>();
        Matcher event = NEVER_COMPILED.matcher(tieredEvents);
        while (event.find()) {
            if (Long.parseLong(event.group(2)) >= 20_000) {
                stuck.add(event.group(1));
            }
        }
        return stuck;
    }

    /**
     * Keep-alive runner runs of more than 6 s let C2 compile the load path only, by the launcher's
     * compiler directives; shorter ones, and runs of a connection per request up to 20 s, compile
     * with C1 alone; longer ones, those whose length is not their duration and the other commands
     * keep both compilers. The user's own flags come last and win. Read off the JVM's final flags.
     */
    @Test
    void eachRunGetsTheCompilersItsShapePaysFor() throws Exception {
        String url = "http://127.0.0.1:9/";
        assertThat(compilers("runner", "-d6s", url, "--version")).isEqualTo(C1_ALONE);
        assertThat(compilers("runner", "-d6000ms", url, "--version")).isEqualTo(C1_ALONE);
        assertThat(compilers("runner", "-H", "Connection: close", url, "--version"))
                .as("a connection per request")
                .isEqualTo(C1_ALONE);
        assertThat(compilers("runner", "--duration", "20s", QUICKSTART_PROFILE, "--version"))
                .isEqualTo(C1_ALONE);
        assertThat(compilers("runner", url, "--version"))
                .as("10 s by default")
                .isEqualTo(LOAD_PATH);
        assertThat(compilers("runner", "-d7s", url, "--version")).isEqualTo(LOAD_PATH);
        assertThat(compilers("runner", "--duration=2m", url, "--version")).isEqualTo(LOAD_PATH);
        assertThat(compilers("runner", "-k", QUICKSTART_PROFILE, "--version")).isEqualTo(LOAD_PATH);
        assertThat(compilers("runner", "-d21s", QUICKSTART_PROFILE, "--version")).isEqualTo(BOTH);
        assertThat(compilers("runner", "-d5s", "--warmup", "30s", url, "--version"))
                .isEqualTo(BOTH);
        assertThat(compilers("runner", "-d5s", "--await-start", url, "--version")).isEqualTo(BOTH);
        assertThat(compilers("run", "--version")).isEqualTo(BOTH);
        assertThat(compilers("-XX:TieredStopAtLevel=4", "runner", "-d5s", url, "--version"))
                .as("the user's flag")
                .isEqualTo(BOTH);
    }

    private static final Path DIRECTIVES =
            ROOT.resolve("operator/launcher/compiler-directives.json");
    private static final String C1_ALONE = "1 ";
    private static final String BOTH = "4 ";
    private static final String LOAD_PATH = "4 " + DIRECTIVES;

    private static final Pattern TIERED_STOP =
            Pattern.compile("(?m)^\\s*intx TieredStopAtLevel\\s+= (\\d+)");
    private static final Pattern DIRECTIVES_FILE =
            Pattern.compile("(?m)^\\s*ccstr CompilerDirectivesFile\\s+= ?(\\S*)");

    /**
     * The JIT's top tier in the JVM the launcher starts for {@code args}, a space and the compiler
     * directives' file it reads: "1 " for C1 alone, "4 " for both compilers.
     */
    private String compilers(String... args) throws Exception {
        // The launcher turns the JVM's console output off where it gives it directives.
        String userFlags =
                "-XX:+UnlockDiagnosticVMOptions -XX:+PrintFlagsFinal -XX:+DisplayVMOutput";
        if (args[0].startsWith("-XX:")) {
            userFlags += " " + args[0];
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        Run run = tcpload(Map.of("TCPLOAD_JAVA_OPTS", userFlags), args);
        assertThat(run.exitStatus()).as(run.out() + run.err()).isZero();
        Matcher level = TIERED_STOP.matcher(run.out());
        Matcher directives = DIRECTIVES_FILE.matcher(run.out());
        assertThat(level.find() && directives.find()).as(run.out()).isTrue();
        return level.group(1) + " " + directives.group(1);
    }

    /**
     * Where it has the directives, C2 compiles the load path's methods and nothing else (the JDK's
     * start-up code, the command line), and the JVM's note that it read them stays off the output.
     */
    @Test
    void c2CompilesOnlyTheLoadPath() throws Exception {
        Run version = tcpload("runner", "http://127.0.0.1:9/", "--version");
        assertThat(version.exitStatus()).as(version.err()).isZero();
        assertThat(version.out()).matches("tcpload runner \\S+\n");

        Run run =
                tcpload(
                        Map.of("TCPLOAD_JAVA_OPTS", "-XX:+DisplayVMOutput -XX:+PrintCompilation"),
                        "runner",
                        "--demo-target",
                        "-c2",
                        "-d7s",
                        "http://tcpload-demo:8080/index.html");

        assertThat(run.exitStatus()).as(run.err()).isZero();
        List<String> loadPath = loadPathPrefixes();
        assertThat(loadPath).contains("io.netty.", "io.tcpload.runner.");
        List<String> byC2 = new ArrayList<>();
        Matcher compiled = C2_COMPILE.matcher(run.out());
        while (compiled.find()) {
            byC2.add(compiled.group(1));
        }
        assertThat(byC2).as("compiled by C2").anyMatch(m -> m.startsWith("io.tcpload.runner."));
        assertThat(byC2).allMatch(m -> loadPath.stream().anyMatch(m::startsWith));
    }

    /** A method compiled at tier 4 (C2), as -XX:+PrintCompilation lists it. */
    private static final Pattern C2_COMPILE =
            Pattern.compile("(?m)^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*4\\s+(\\S+)::");

    /** The packages the directives leave to C2, as class-name prefixes ("io.netty."). */
    private static List<String> loadPathPrefixes() throws IOException {
        List<String> prefixes = new ArrayList<>();
        Matcher pattern =
                Pattern.compile("\"([\\w/]+)/\\*\\.\\*\"")
                        .matcher(Files.readString(DIRECTIVES, StandardCharsets.UTF_8));
        while (pattern.find()) {
            prefixes.add(pattern.group(1).replace('/', '.') + ".");
        }
        return prefixes;
    }
}
