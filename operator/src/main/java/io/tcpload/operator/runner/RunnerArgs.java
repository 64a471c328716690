package io.tcpload.operator.runner;

import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.format.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The runner's command line for one runner of a test: the one place where a spec becomes runner
 * flags, used by the runner pods and by a local run alike. Pure.
 *
 * <p>Connections are the whole test's; runner {@code i} of {@code N} gets its share (the first
 * runners take the remainder), so the runners together open exactly {@code connections}. {@code
 * --rate} and {@code --stages} are passed whole: each runner takes its interleaved share of the
 * test's one schedule from {@code --runner-index} and {@code --runner-count}.
 */
public final class RunnerArgs {
    /** Where the runner pod mounts the profile and its data files. */
    public static final String PROFILE_DIR = "/etc/tcpload/profile";

    /** The profile's file name in {@link #PROFILE_DIR} (and its key in the ConfigMap). */
    public static final String PROFILE_FILE = "profile.ini";

    /** Where the runner pod writes its JSON result. */
    public static final String RESULTS_DIR = "/results";

    public static final String RESULT_FILE = RESULTS_DIR + "/result.json";

    /** The runner pod's HTTP port (metrics, stats, start and result), named {@code metrics}. */
    public static final int DEFAULT_PORT = 8080;

    /**
     * How long a runner pod keeps its result for the operator after the run: long enough for an
     * operator restarted mid-run to come back and fetch it.
     */
    public static final int HOLD_RESULT_SECONDS = 600;

    private RunnerArgs() {}

    /**
     * The arguments (after the program) of runner {@code runnerIndex}.
     *
     * @throws IllegalArgumentException when the index is outside the spec's runners or a duration
     *     does not parse (validation refuses such specs first)
     */
    public static List<String> forRunner(TcpLoadTestSpec spec, int runnerIndex) {
        int runners = spec.getRunners();
        if (runnerIndex < 0 || runnerIndex >= runners) {
            throw new IllegalArgumentException(
                    "runner index " + runnerIndex + " is outside 0.." + (runners - 1));
        }
        return build(spec, OptionalInt.of(runnerIndex));
    }

    /**
     * The arguments shared by every pod of the Indexed Job: a pod's index is not known when its
     * template is written, so the runner reads it from {@code JOB_COMPLETION_INDEX} and takes its
     * share of the whole test's connections itself ({@code --shared}), by the same rule as {@link
     * #forRunner}.
     */
    public static List<String> forJob(TcpLoadTestSpec spec) {
        return build(spec, OptionalInt.empty());
    }

    /**
     * The arguments of a runner pod: {@link #forJob}, and the control channel on {@code port}: the
     * pod waits ready for the operator's start instant and holds its result until the operator has
     * it.
     */
    public static List<String> forPod(TcpLoadTestSpec spec, int port) {
        List<String> args = new ArrayList<>(forJob(spec));
        String profile = args.remove(args.size() - 1);
        args.add("--metrics-port=" + port);
        args.add("--await-start");
        args.add("--hold-result=" + HOLD_RESULT_SECONDS);
        args.add(profile);
        return List.copyOf(args);
    }

    private static List<String> build(TcpLoadTestSpec spec, OptionalInt index) {
        int runners = spec.getRunners();
        // Without an index, each amount is the whole test's and the runner takes its share.
        int shareIndex = index.orElse(0);
        int shareOf = index.isPresent() ? runners : 1;
        List<String> args = new ArrayList<>();
        args.add("--threads=" + spec.getThreads());
        args.add("--connections=" + Shares.of(spec.getConnections(), shareOf, shareIndex));
        if (spec.getStages().isEmpty()) {
            // With stages the runner's run lasts their sum; it refuses a duration beside them.
            args.add("--duration=" + duration(spec));
        }
        args.add("--timeout=" + spec.getTimeout());
        if (Boolean.TRUE.equals(spec.getKeepAlive())) {
            args.add("--keepalive");
        }
        args.add("--latency");
        args.add("--json=" + RESULT_FILE);
        if (index.isPresent()) {
            args.add("--runner-index=" + index.getAsInt());
        } else {
            args.add("--shared");
        }
        args.add("--runner-count=" + runners);
        TargetOverride target = spec.getTarget();
        if (target != null) {
            args.add("--target=" + hostPort(target));
        }
        if (spec.getRate() != null) {
            args.add("--rate=" + spec.getRate());
        }
        if (!spec.getStages().isEmpty()) {
            args.add("--stages=" + stages(spec.getStages()));
        }
        args.add(PROFILE_DIR + "/" + PROFILE_FILE);
        return List.copyOf(args);
    }

    /**
     * The duration as given, or for stages their total (the runner loads that long; the rate
     * schedule within it is the stages').
     */
    public static String duration(TcpLoadTestSpec spec) {
        if (spec.getDuration() != null) {
            return spec.getDuration();
        }
        long totalMs = 0;
        for (Stage stage : spec.getStages()) {
            totalMs += Quantities.durationMs("stages.duration", stage.getDuration());
        }
        return totalMs + "ms";
    }

    /** {@code 30s:100,1m:500}: each stage's duration and the whole test's rate. */
    static String stages(List<Stage> stages) {
        return stages.stream()
                .map(stage -> stage.getDuration() + ":" + stage.getRate())
                .collect(Collectors.joining(","));
    }

    private static String hostPort(TargetOverride target) {
        String host = target.getHost();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + target.getPort();
    }
}
