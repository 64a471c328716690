package io.tcpload.runner.session;

import io.tcpload.runner.contract.RunnerInvocation.Outputs;
import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.html.HtmlReport;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.report.ReportOptions;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a finished run leaves behind: the console report, the error table, the JSON result and the
 * HTML report; the runner's command line and local mode both write them here. The paths are checked
 * before the load starts ({@link #problems}), so that a long run does not end in a file that cannot
 * be written.
 */
public final class RunOutputs {
    /** The exit status when a report could not be written after the run. */
    public static final int EXIT_WRITE_FAILED = 1;

    private RunOutputs() {}

    /**
     * Why {@code --json} or {@code --html} could not be written: a missing folder, a directory, a
     * path that is not writable. Checked without creating anything.
     */
    public static List<String> problems(Outputs outputs) {
        List<String> problems = new ArrayList<>();
        if (!outputs.jsonToStdout()) {
            outputs.json().flatMap(path -> problem("--json", path)).ifPresent(problems::add);
        }
        outputs.html().flatMap(path -> problem("--html", path)).ifPresent(problems::add);
        return problems;
    }

    /**
     * A file the run reads, named as the messages name it: {@code the profile}, {@code the data
     * file of NAME}, {@code --tls-ca}.
     */
    public record Input(String what, Path path) {}

    /**
     * Why {@code --json} or {@code --html} would overwrite a file the run reads ({@code --json
     * p.ini p.ini}): the result would replace the profile or a data file, which is lost then.
     */
    public static List<String> overwritten(Outputs outputs, List<Input> inputs) {
        List<String> problems = new ArrayList<>();
        if (!outputs.jsonToStdout()) {
            outputs.json()
                    .flatMap(path -> overwrites("--json", path, inputs))
                    .ifPresent(problems::add);
        }
        outputs.html().flatMap(path -> overwrites("--html", path, inputs)).ifPresent(problems::add);
        return problems;
    }

    private static Optional<String> overwrites(String flag, Path output, List<Input> inputs) {
        for (Input input : inputs) {
            if (sameFile(output, input.path())) {
                return Optional.of(
                        flag
                                + ": "
                                + output
                                + " is "
                                + input.what()
                                + ", which the result would overwrite; write it elsewhere");
            }
        }
        return Optional.empty();
    }

    /** Whether both name one existing file (through links and relative paths alike). */
    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** Why {@code path} cannot be written, or empty. */
    public static Optional<String> problem(String flag, Path path) {
        Path absolute = path.toAbsolutePath();
        Path folder = absolute.getParent();
        String cannot = flag + ": cannot write " + path + ": ";
        if (Files.isDirectory(absolute)) {
            return Optional.of(cannot + "it is a folder");
        }
        if (folder == null || !Files.isDirectory(folder)) {
            return Optional.of(cannot + "the folder " + folder + " does not exist");
        }
        if (Files.exists(absolute) ? !Files.isWritable(absolute) : !Files.isWritable(folder)) {
            return Optional.of(cannot + "permission denied");
        }
        return Optional.empty();
    }

    /**
     * Where the text report goes: {@code out}, but {@code err} when the JSON result goes to
     * standard output ({@code --json -}), so that standard output holds the JSON document alone and
     * a program can read it as it is.
     */
    public static PrintStream reportStream(Outputs outputs, PrintStream out, PrintStream err) {
        return outputs.jsonToStdout() ? err : out;
    }

    /**
     * Prints the report on {@code out} ({@link #reportStream}: on {@code err} with {@code --json
     * -}) and the error table on {@code err}, then writes the JSON result and the HTML report where
     * asked.
     *
     * @param stopped the signal that ended the run early, if one did: the JSON result and the HTML
     *     report then say the result is partial
     * @param name the command as the user typed it, which a message of a failed write begins with
     * @return 0, or {@link #EXIT_WRITE_FAILED} when a file could not be written (said on {@code
     *     err})
     */
    public static int write(
            RunSummary summary,
            Optional<Stopped> stopped,
            Outputs outputs,
            String name,
            PrintStream out,
            PrintStream err) {
        PrintStream report = reportStream(outputs, out, err);
        report.print(
                ConsoleReport.render(
                        summary,
                        new ReportOptions(
                                outputs.latency(), outputs.trace(), outputs.uncorrectedLatency())));
        report.flush();
        printErrors(summary.errorMessages(), err);
        int status = 0;
        if (outputs.json().isPresent()) {
            String json = JsonResult.write(summary, stopped.orElse(null));
            if (outputs.jsonToStdout()) {
                out.println(json);
                out.flush();
            } else {
                status = Math.max(status, writeFile(outputs.json().get(), json, name, err));
            }
        }
        if (outputs.html().isPresent()) {
            status =
                    Math.max(
                            status,
                            writeFile(
                                    outputs.html().get(),
                                    HtmlReport.render(summary, stopped),
                                    name,
                                    err));
        }
        return status;
    }

    /**
     * A capacity search's outputs: its report on {@code out} (on {@code err} with {@code --json -};
     * the {@code Capacity:} line and the step table), the error table of every step on {@code err},
     * and the JSON result and the HTML report where asked. Nothing is written for a search stopped
     * before its first step.
     *
     * @param stopped the signal that ended the search early, if one did: the JSON result and the
     *     HTML report then say the result is partial, as a stopped run's do
     * @param name the command as the user typed it, which a message of a failed write begins with
     * @return 0, or {@link #EXIT_WRITE_FAILED} when a file could not be written
     */
    public static int writeSearch(
            SearchResult result,
            SearchSpec spec,
            Optional<Stopped> stopped,
            Outputs outputs,
            String name,
            PrintStream out,
            PrintStream err) {
        PrintStream report = reportStream(outputs, out, err);
        report.print(SearchReport.render(result, spec.slo()));
        report.flush();
        if (!result.anyStep()) {
            return 0;
        }
        printErrors(result.headline().errorMessages(), err);
        int status = 0;
        if (outputs.json().isPresent()) {
            String json = JsonResult.writeSearch(result, spec, stopped.orElse(null));
            if (outputs.jsonToStdout()) {
                out.println(json);
                out.flush();
            } else {
                status = Math.max(status, writeFile(outputs.json().get(), json, name, err));
            }
        }
        if (outputs.html().isPresent()) {
            status =
                    Math.max(
                            status,
                            writeFile(
                                    outputs.html().get(),
                                    HtmlReport.renderSearch(result, spec, stopped),
                                    name,
                                    err));
        }
        return status;
    }

    /** The run's error messages with their counts, most frequent first, as wrk's table. */
    public static void printErrors(List<ErrorCount> errors, PrintStream err) {
        if (errors.isEmpty()) {
            return;
        }
        err.println("Errors:");
        for (ErrorCount error : errors) {
            err.printf("  %10d  %s%n", error.count(), error.message());
        }
    }

    private static int writeFile(Path file, String text, String name, PrintStream err) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
            return 0;
        } catch (IOException e) {
            err.println(name + ": cannot write " + file + ": " + e.getMessage());
            return EXIT_WRITE_FAILED;
        }
    }
}
