package io.tcpload.runner.cli;

import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.files.BoundedRead;
import io.tcpload.runner.files.UnreadableFileException;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.LoadedProfile;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.ProfileProblem;
import io.tcpload.runner.profile.TlsFilesGiven;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The profile an invocation names: its INI file loaded (the TLS flags' files standing for the
 * profile's own), or a wrk-style URL built into one ({@link UrlProfile}) with the request flags.
 */
final class InvocationProfile {
    /** A request body as large as a profile may be. */
    static final long MAX_BODY_BYTES = 16L * 1024 * 1024;

    private InvocationProfile() {}

    /**
     * The profile of the file or the URL; its problems are printed on {@code err} and the result is
     * empty when it is unusable.
     *
     * @param name the command as the user typed it, which its messages begin with
     * @throws PlanException when the URL or its request flags are bad
     */
    static Optional<Profile> of(RunnerInvocation invocation, String name, PrintStream err)
            throws PlanException {
        String named = invocation.profile().orElseThrow();
        if (RunPlan.looksLikeUrl(named)) {
            RunnerInvocation.UrlRequest request = invocation.request();
            try {
                return Optional.of(
                        UrlProfile.build(
                                named, request.method(), request.headers(), body(request)));
            } catch (IllegalArgumentException e) {
                throw new PlanException(List.of(e.getMessage()));
            }
        }
        try {
            // The files of --tls-ca, --tls-cert and --tls-key stand for the profile's own.
            RunnerInvocation.Tls flags = invocation.tls();
            LoadedProfile loaded =
                    ProfileLoader.load(
                            Path.of(named),
                            new TlsFilesGiven(
                                    flags.ca().isPresent(),
                                    flags.cert().isPresent() && flags.key().isPresent()));
            for (ProfileProblem warning : loaded.warnings()) {
                err.println("warning: " + warning);
            }
            return Optional.of(loaded.profile());
        } catch (ProfileException e) {
            for (ProfileProblem problem : e.problems()) {
                err.println("error: " + problem);
            }
            err.println(name + ": unable to load profile " + named);
            return Optional.empty();
        }
    }

    /**
     * The body as given, or the body file's bytes as they are, read at most to {@link
     * #MAX_BODY_BYTES} whatever the file is (a device, a FIFO).
     */
    private static String body(RunnerInvocation.UrlRequest request) throws PlanException {
        if (request.bodyFile().isEmpty()) {
            return request.body().orElse("");
        }
        try {
            return ByteText.decode(
                    BoundedRead.readAtMost(request.bodyFile().get(), MAX_BODY_BYTES, "body file"));
        } catch (UnreadableFileException e) {
            throw new PlanException(List.of("--body-file: " + e.getMessage()));
        }
    }
}
