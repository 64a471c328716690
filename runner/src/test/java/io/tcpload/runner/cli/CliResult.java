package io.tcpload.runner.cli;

import io.tcpload.runner.RunnerMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/** The exit status and the printed text of one in-process run of the runner's command line. */
record CliResult(int exitCode, String out, String err) {

    static CliResult run(String... args) {
        return runWith(System::getenv, args);
    }

    /** As {@link #run}, the process's environment variables those of {@code environment}. */
    static CliResult runWith(Function<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunnerMain.execute(o, e, environment, args);
        }
        return new CliResult(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
