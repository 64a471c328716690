package io.tcpload.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.tcpload.operator.children.ControlKey;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.status.RunnerProbe;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.status.StepInstruction;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A reconcile that throws still lands in the status, which keeps everything else it had. */
class ErrorStatusTest {
    private static final RunnerClient UNUSED =
            new RunnerClient() {
                @Override
                public Map<String, RunnerProbe> stats(Collection<String> podIps) {
                    throw new AssertionError();
                }

                @Override
                public Optional<String> result(String podIp, String token) {
                    throw new AssertionError();
                }

                @Override
                public void start(Collection<String> podIps, long atEpochMs, String token) {
                    throw new AssertionError();
                }

                @Override
                public void step(Collection<String> podIps, StepInstruction step, String token) {
                    throw new AssertionError();
                }

                @Override
                public Optional<String> stepResult(String podIp, int number, String token) {
                    throw new AssertionError();
                }

                @Override
                public void endSteps(Collection<String> podIps, String token) {
                    throw new AssertionError();
                }

                @Override
                public void finish(String podIp, String token) {
                    throw new AssertionError();
                }
            };

    @Test
    void theFailureIsInTheMessageAndTheRestOfTheStatusStays() {
        TcpLoadTest test = Specs.test("pay", Specs.valid());
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Running);
        status.setStartAtMs(1_700_000_000_000L);
        test.setStatus(status);
        TcpLoadTestReconciler reconciler =
                new TcpLoadTestReconciler(
                        "runner:test", 8080, UNUSED, ControlKey.random(), Clock.systemUTC());

        TcpLoadTest patched =
                reconciler
                        .updateErrorStatus(
                                test,
                                null,
                                new IllegalStateException("cannot tell runner 10.0.0.2 the start"))
                        .getResource()
                        .orElseThrow();

        assertThat(patched.getSpec()).as("status only").isNull();
        assertThat(patched.getMetadata().getName()).isEqualTo("pay");
        assertThat(patched.getStatus().getMessage())
                .isEqualTo("Reconcile failed, retrying: cannot tell runner 10.0.0.2 the start");
        assertThat(patched.getStatus().getPhase()).isEqualTo(Phase.Running);
        assertThat(patched.getStatus().getStartAtMs()).isEqualTo(1_700_000_000_000L);
        assertThat(test.getStatus().getMessage()).as("the read resource is untouched").isNull();
    }

    @Test
    void onTheLastRetryTheTestIsGivenUpAsFailedNotRetriedForEver() {
        TcpLoadTest test = Specs.test("pay", Specs.valid());
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Starting);
        test.setStatus(status);
        TcpLoadTestReconciler reconciler =
                new TcpLoadTestReconciler(
                        "runner:test", 8080, UNUSED, ControlKey.random(), Clock.systemUTC());

        TcpLoadTest patched =
                reconciler
                        .updateErrorStatus(
                                test,
                                lastAttempt(),
                                new IllegalStateException("jobs.batch is forbidden"))
                        .getResource()
                        .orElseThrow();

        assertThat(patched.getStatus().getPhase()).isEqualTo(Phase.Failed);
        assertThat(patched.getStatus().getMessage())
                .isEqualTo("Reconcile failed on every retry: jobs.batch is forbidden");
        assertThat(patched.getStatus().getCompletionTime()).isNotNull();
        assertThat(patched.getStatus().getConditions())
                .anySatisfy(
                        c -> {
                            assertThat(c.getType()).isEqualTo(StatusComputer.STALLED);
                            assertThat(c.getStatus()).isEqualTo("True");
                            assertThat(c.getReason()).isEqualTo("ReconcileFailed");
                        });
    }

    /** A reconcile context that says this is the last attempt, and nothing else. */
    @SuppressWarnings("unchecked")
    private static Context<TcpLoadTest> lastAttempt() {
        RetryInfo last =
                new RetryInfo() {
                    @Override
                    public int getAttemptCount() {
                        return 6;
                    }

                    @Override
                    public boolean isLastAttempt() {
                        return true;
                    }
                };
        return (Context<TcpLoadTest>)
                Proxy.newProxyInstance(
                        Context.class.getClassLoader(),
                        new Class<?>[] {Context.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("getRetryInfo")) {
                                return Optional.of(last);
                            }
                            throw new AssertionError("not used: " + method.getName());
                        });
    }
}
