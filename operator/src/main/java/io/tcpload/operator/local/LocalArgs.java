package io.tcpload.operator.local;

import io.tcpload.operator.runner.RunnerArgs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves a runner pod's command line to this machine: the pod's profile and result paths become
 * local files, every other argument stays as {@link RunnerArgs} made it, so a local run loads
 * exactly as the pods would. Pure.
 */
final class LocalArgs {
    private static final String POD_PROFILE =
            RunnerArgs.PROFILE_DIR + "/" + RunnerArgs.PROFILE_FILE;
    private static final String POD_JSON = "--json=" + RunnerArgs.RESULT_FILE;

    private LocalArgs() {}

    /**
     * @throws IllegalStateException when the pod's profile or result argument is not there (the
     *     runner arguments changed shape without this class)
     */
    static List<String> localize(List<String> podArgs, Path profile, Path json) {
        List<String> args = new ArrayList<>(podArgs.size());
        boolean profileSeen = false;
        boolean jsonSeen = false;
        for (String arg : podArgs) {
            if (arg.equals(POD_PROFILE)) {
                args.add(profile.toString());
                profileSeen = true;
            } else if (arg.equals(POD_JSON)) {
                args.add("--json=" + json);
                jsonSeen = true;
            } else {
                args.add(arg);
            }
        }
        if (!profileSeen || !jsonSeen) {
            throw new IllegalStateException(
                    "runner arguments without " + POD_PROFILE + " or " + POD_JSON + ": " + podArgs);
        }
        return List.copyOf(args);
    }
}
