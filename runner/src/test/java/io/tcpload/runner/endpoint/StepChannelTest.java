package io.tcpload.runner.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tcpload.runner.client.StepOrder;
import io.tcpload.runner.endpoint.StepChannel.PostOutcome;
import io.tcpload.runner.endpoint.StepChannel.Request;
import io.tcpload.runner.endpoint.StepChannel.ResultState;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunSummary;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The steps an orchestrator tells one runner of a distributed search, without the engine. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StepChannelTest {
    private final StepChannel steps = new StepChannel();

    private static Request step(int number, long atEpochMs) {
        return new Request(number, 1_000, 500, 3_000, atEpochMs, 0);
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    @Test
    void aStepIsTakenOnceAndTheSameNumberAgainChangesNothing() {
        long at = now();

        assertThat(steps.post(step(1, at))).isEqualTo(PostOutcome.TAKEN);
        assertThat(steps.post(new Request(1, 9_999, 0, 9_000, at + 5, 0)))
                .isEqualTo(PostOutcome.TAKEN);
        assertThat(steps.currentStep()).isEqualTo(1);
        assertThat(steps.result(1).state()).isEqualTo(ResultState.PENDING);
    }

    @Test
    void anotherStepWhileOneIsPendingAndANumberOutOfOrderAreConflicts() throws Exception {
        assertThat(steps.post(step(2, now()))).as("not the first").isEqualTo(PostOutcome.CONFLICT);
        assertThat(steps.post(step(1, now()))).isEqualTo(PostOutcome.TAKEN);
        assertThat(steps.post(step(2, now()))).as("1 pending").isEqualTo(PostOutcome.CONFLICT);

        steps.next(Optional.empty());
        assertThat(steps.post(step(2, now()))).as("1 running").isEqualTo(PostOutcome.CONFLICT);
        assertThat(steps.result(1).state()).isEqualTo(ResultState.PENDING);
    }

    @Test
    void theEngineWaitsForEachStepAndEachResultIsKeptForTheOrchestrator() throws Exception {
        CompletableFuture<Optional<StepOrder>> first = waitForNext(Optional.empty());
        assertThat(first).as("no step posted yet").isNotDone();

        long at = now() + 200;
        steps.post(step(1, at));
        StepOrder order = first.get(5, TimeUnit.SECONDS).orElseThrow();
        assertThat(order).isEqualTo(new StepOrder(1, 1_000, 500, 3_000));
        assertThat(now()).as("not before its instant").isGreaterThanOrEqualTo(at);

        RunSummary result = RunBuilder.aRun().build();
        CompletableFuture<Optional<StepOrder>> second = waitForNext(Optional.of(result));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> steps.result(1).state() == ResultState.DONE);
        assertThat(steps.result(1).summary()).containsSame(result);
        assertThat(steps.result(1).json()).get().asString().contains("tcpload-result/v1");
        assertThat(steps.result(2).state()).isEqualTo(ResultState.UNKNOWN);

        assertThat(steps.post(step(2, now()))).isEqualTo(PostOutcome.TAKEN);
        assertThat(second.get(5, TimeUnit.SECONDS)).map(StepOrder::number).hasValue(2);
    }

    @Test
    void theEndEndsTheWaitAndNoStepIsTakenAfterIt() throws Exception {
        CompletableFuture<Optional<StepOrder>> next = waitForNext(Optional.empty());

        steps.end();

        assertThat(next.get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(steps.post(step(1, now()))).isEqualTo(PostOutcome.ENDED);
        assertThat(steps.ended()).isTrue();
    }

    @Test
    void aCancelEndsTheWaitForAStepsInstantAndTheStepIsNeverRun() throws Exception {
        steps.post(step(1, now() + 60_000));
        CompletableFuture<Optional<StepOrder>> next = waitForNext(Optional.empty());

        steps.cancel();

        assertThat(next.get(5, TimeUnit.SECONDS)).isEmpty();
        assertThat(steps.result(1).state()).isEqualTo(ResultState.UNKNOWN);
    }

    @Test
    void valuesOutOfRangeAreRefused() {
        long at = now();
        assertThat(steps.post(new Request(1, 0, 0, 1_000, at, 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.post(new Request(1, 100, -1, 1_000, at, 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.post(new Request(1, 100, 0, 0, at, 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.post(new Request(0, 100, 0, 1_000, at, 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.post(new Request(1, 100, 0, 1_000, at - 60_000, 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.post(new Request(1, 100, 0, 1_000, at + Duration.ofDays(2).toMillis(), 0)))
                .isEqualTo(PostOutcome.OUT_OF_RANGE);
        assertThat(steps.currentStep()).isZero();
    }

    @Test
    void onlyTheLastResultsAreKept() throws Exception {
        int steps = StepChannel.KEPT_RESULTS + 2;
        CompletableFuture<Integer> engine = engine();
        for (int n = 1; n <= steps; n++) {
            int number = n;
            // Each step is taken once the engine has finished the one before.
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> this.steps.post(step(number, now())) == PostOutcome.TAKEN);
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> this.steps.result(steps).state() == ResultState.DONE);
        this.steps.end();

        assertThat(engine.get(5, TimeUnit.SECONDS)).isEqualTo(steps);
        assertThat(this.steps.result(1).state()).isEqualTo(ResultState.UNKNOWN);
        assertThat(this.steps.result(2).state()).isEqualTo(ResultState.UNKNOWN);
        assertThat(this.steps.result(3).state()).isEqualTo(ResultState.DONE);
        assertThat(this.steps.result(steps).state()).isEqualTo(ResultState.DONE);
    }

    /** The engine's side: runs each step at once, until the end; says how many it ran. */
    private CompletableFuture<Integer> engine() {
        CompletableFuture<Integer> ran = new CompletableFuture<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                int count = 0;
                                Optional<RunSummary> previous = Optional.empty();
                                while (steps.next(previous).isPresent()) {
                                    count++;
                                    previous = Optional.of(RunBuilder.aRun().build());
                                }
                                ran.complete(count);
                            } catch (Throwable e) {
                                ran.completeExceptionally(e);
                            }
                        },
                        "step-channel-test-engine");
        thread.setDaemon(true);
        thread.start();
        return ran;
    }

    private CompletableFuture<Optional<StepOrder>> waitForNext(Optional<RunSummary> previous) {
        CompletableFuture<Optional<StepOrder>> next = new CompletableFuture<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                next.complete(steps.next(previous));
                            } catch (Throwable e) {
                                next.completeExceptionally(e);
                            }
                        },
                        "step-channel-test");
        thread.setDaemon(true);
        thread.start();
        return next;
    }
}
