package io.tcpload.runner.cli;

import io.tcpload.runner.contract.DryRunOptions;
import io.tcpload.runner.dryrun.DryRunMask;
import io.tcpload.runner.dryrun.ExchangeLoop;
import io.tcpload.runner.plan.PlanException;
import io.tcpload.runner.plan.RunPlan;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.session.RunSession;
import io.tcpload.runner.template.RequestMix;
import io.tcpload.runner.template.RunnerSlice;
import io.tcpload.runner.tls.ClientTls;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * wrktcp's {@code --test}, done so that a profile can be checked against its service: each request
 * of the profile once, in order, on one connection (a fresh one per request without keep-alive, as
 * the load would), each printed with its bytes (hex and text), the response's bytes, how they were
 * framed (head, length field, body), the code found and the verdict. Exit status 0 when every
 * response is a success, 1 otherwise, 2 for a profile that cannot be built. The exchange can also
 * be written as JSON ({@link DryRunResult}, for a runner pod's termination message), and values of
 * ENV parameters, secret data files and values carried from responses masked in both ({@link
 * DryRunMask}).
 *
 * <p>This is the command's side: the plan and profile checked and compiled, the mask and the TLS
 * context made, the exit status and the JSON file. The exchange itself, over plain blocking sockets
 * bounded by {@code --timeout} (with TLS the load's own context), is {@link ExchangeLoop}'s.
 */
public final class DryRun {
    /** The command as the user typed it, and a colon: what its messages begin with. */
    private final String prefix;

    private final String name;
    private final PrintStream out;
    private final PrintStream err;
    private final DryRunOptions options;

    /**
     * How a dry run ended: its exit status (0 every response a success, 1 otherwise, 2 a profile
     * that cannot be built), and the exchange, when requests were sent.
     */
    public record Outcome(int exitStatus, Optional<DryRunResult> result) {}

    /**
     * A dry run printing to {@code out}, its problems to {@code err}, each begun with {@code name}:
     * the command as the user typed it ({@code tcpload run}).
     */
    public DryRun(String name, PrintStream out, PrintStream err) {
        this(name, out, err, DryRunOptions.NONE);
    }

    /** As {@link #DryRun(String, PrintStream, PrintStream)}, with {@code options}. */
    public DryRun(String name, PrintStream out, PrintStream err, DryRunOptions options) {
        this.name = name;
        this.prefix = name + ": ";
        this.out = out;
        this.err = err;
        this.options = options;
    }

    /**
     * Runs the dry run of {@code loaded} as {@code plan} says (its target, timeout, keep-alive and
     * TLS flags); ENV parameters from {@code environment}; the exchange written as JSON when the
     * options say where.
     *
     * @return 0 when every response is a success, 1 when one is not, 2 for a profile that cannot be
     *     built
     */
    public int run(RunPlan plan, Profile loaded, Function<String, String> environment) {
        Outcome outcome = outcome(plan, loaded, environment);
        if (outcome.result().isPresent() && options.json().isPresent()) {
            Path json = options.json().get();
            try {
                Files.writeString(
                        json,
                        outcome.result().get().toJson(DryRunResult.TERMINATION_MESSAGE_BYTES),
                        StandardCharsets.UTF_8);
            } catch (IOException e) {
                err.println(prefix + "cannot write --test-json " + json + ": " + e);
                return RunCommand.EXIT_INVALID;
            }
        }
        return outcome.exitStatus();
    }

    /**
     * Sends each request of {@code loaded} once as {@code plan} says, printing the exchange, and
     * returns how it went; nothing is written.
     */
    public Outcome outcome(RunPlan plan, Profile loaded, Function<String, String> environment) {
        Profile profile = plan.applyTo(loaded);
        RequestMix requests;
        long connectionId;
        try {
            if (plan.problemWith(profile).isPresent()) {
                err.println(prefix + plan.problemWith(profile).get());
                return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
            }
            requests =
                    RequestMix.compile(
                            profile,
                            new RunnerSlice(plan.runnerIndex(), plan.invocation().share().count()),
                            environment);
            connectionId = plan.loadConfig(profile).connectionId(0, 0);
        } catch (IllegalArgumentException e) {
            err.println(prefix + e.getMessage());
            return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
        }
        DryRunMask mask =
                DryRunMask.of(
                        profile,
                        environment,
                        options.maskEnv(),
                        options.maskFiles(),
                        options.maskExtracted());
        ClientTls tls;
        try {
            tls = RunSession.clientTlsFor(plan, profile, environment, name, err);
        } catch (PlanException e) {
            e.problems().forEach(problem -> err.println(prefix + problem));
            return new Outcome(RunCommand.EXIT_INVALID, Optional.empty());
        }
        try {
            return run(plan, profile, requests, connectionId, mask, tls);
        } finally {
            if (tls != null) {
                tls.close();
            }
        }
    }

    private Outcome run(
            RunPlan plan,
            Profile profile,
            RequestMix requests,
            long connectionId,
            DryRunMask mask,
            ClientTls tls) {
        InetSocketAddress address;
        try {
            address =
                    new InetSocketAddress(
                            InetAddress.getByName(profile.target().host()),
                            profile.target().port());
        } catch (UnknownHostException e) {
            err.println(prefix + "cannot resolve host '" + profile.target().host() + "'");
            return new Outcome(RunCommand.EXIT_FAILED, Optional.empty());
        }
        int timeoutMs = (int) Math.min(Integer.MAX_VALUE, plan.invocation().load().timeoutMs());
        DryRunResult result =
                new ExchangeLoop(out, mask, timeoutMs, plan.keepAlive(profile), tls)
                        .run(profile, requests, connectionId, address);
        return new Outcome(
                result.passed() ? RunCommand.EXIT_OK : RunCommand.EXIT_FAILED, Optional.of(result));
    }
}
