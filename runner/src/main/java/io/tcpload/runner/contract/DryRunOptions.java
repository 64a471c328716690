package io.tcpload.runner.contract;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A dry run's part of a runner's command line ({@code --test} and its flags, before the load's
 * {@link RunnerInvocation}): what it writes besides its printout, and what it hides. {@link
 * #toArgs} and {@link #parse} are one round trip, as the invocation's are, so that the operator
 * writes and reads a dry run's pod arguments only through this record. Pure, immutable.
 *
 * @param json where to write the exchange as JSON ({@code tcpload-dryrun/v1}, at most a termination
 *     message's 4 KiB), if anywhere
 * @param maskEnv mask the values of ENV parameters, printed and written
 * @param maskFiles mask the lines of the data files of these names (FILE parameters)
 * @param maskExtracted mask the values responses hand the connection ({@code rsp_extract})
 */
public record DryRunOptions(
        Optional<Path> json, boolean maskEnv, List<String> maskFiles, boolean maskExtracted) {
    public static final String TEST = "--test";
    public static final String TEST_JSON = "--test-json";
    public static final String TEST_MASK_ENV = "--test-mask-env";
    public static final String TEST_MASK_FILE = "--test-mask-file";
    public static final String TEST_MASK_EXTRACTED = "--test-mask-extracted";

    /** Nothing written, nothing masked: the runner's own {@code --test}. */
    public static final DryRunOptions NONE =
            new DryRunOptions(Optional.empty(), false, List.of(), false);

    public DryRunOptions {
        Objects.requireNonNull(json, "json");
        maskFiles = List.copyOf(maskFiles);
    }

    /** Whether anything is masked. */
    public boolean masks() {
        return maskEnv || maskExtracted || !maskFiles.isEmpty();
    }

    /** {@code --test} and its flags, each as {@code --name=value}. */
    public List<String> toArgs() {
        List<String> args = new ArrayList<>();
        args.add(TEST);
        json.ifPresent(path -> args.add(TEST_JSON + "=" + path));
        if (maskEnv) {
            args.add(TEST_MASK_ENV);
        }
        for (String file : maskFiles) {
            args.add(TEST_MASK_FILE + "=" + file);
        }
        if (maskExtracted) {
            args.add(TEST_MASK_EXTRACTED);
        }
        return List.copyOf(args);
    }

    /**
     * The dry run's options in a command line of {@link #toArgs} form; empty without {@code
     * --test}.
     */
    public static Optional<DryRunOptions> parse(List<String> args) {
        if (!args.contains(TEST)) {
            return Optional.empty();
        }
        Optional<Path> json = Optional.empty();
        List<String> files = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith(TEST_JSON + "=")) {
                json = Optional.of(Path.of(arg.substring(TEST_JSON.length() + 1)));
            } else if (arg.startsWith(TEST_MASK_FILE + "=")) {
                files.add(arg.substring(TEST_MASK_FILE.length() + 1));
            }
        }
        return Optional.of(
                new DryRunOptions(
                        json,
                        args.contains(TEST_MASK_ENV),
                        files,
                        args.contains(TEST_MASK_EXTRACTED)));
    }

    /**
     * A command line without the dry run's flags: the load's, for {@link RunnerInvocation#parse}.
     */
    public static List<String> withoutDryRun(List<String> args) {
        return args.stream()
                .filter(
                        arg ->
                                !arg.equals(TEST)
                                        && !arg.startsWith(TEST_JSON + "=")
                                        && !arg.equals(TEST_MASK_ENV)
                                        && !arg.equals(TEST_MASK_EXTRACTED)
                                        && !arg.startsWith(TEST_MASK_FILE + "="))
                .toList();
    }
}
