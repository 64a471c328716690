package io.tcpload.runner.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.search.CapacitySearch.End;
import io.tcpload.runner.search.CapacitySearch.Kind;
import io.tcpload.runner.search.CapacitySearch.Order;
import io.tcpload.runner.search.CapacitySearch.Outcome;
import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.Counts;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The search against simulated services: queues of known capacity, measured exactly. */
class CapacitySearchTest {
    private static final int STEP_SECONDS = 10;

    /**
     * A service of {@code capacity} per second answering in {@code serviceMs} below it; above it a
     * queue grows by the excess, and the latency with it.
     */
    static StepFigures queue(double capacity, double serviceMs, double rate) {
        double excess = Math.max(0, rate - capacity);
        double inFlight = rate * serviceMs / 1000;
        long atMid = Math.round(inFlight + excess * (STEP_SECONDS / 2));
        long atEnd = Math.round(inFlight + excess * STEP_SECONDS);
        double worstWaitMs = excess * STEP_SECONDS / capacity * 1000;
        double answered = Math.min(rate, capacity);
        long requests = Math.round(answered * STEP_SECONDS);
        Counts counts = new Counts(requests, requests, 0, 0, 0, 0, 0, 0, 0, 0);
        Slo.Figures figures =
                new Slo.Figures(
                        serviceMs + worstWaitMs * 0.5,
                        serviceMs + worstWaitMs * 0.75,
                        serviceMs + worstWaitMs * 0.9,
                        serviceMs + worstWaitMs * 0.99,
                        serviceMs + worstWaitMs * 0.999,
                        serviceMs + worstWaitMs * 0.9999,
                        serviceMs + worstWaitMs * 0.5,
                        serviceMs + worstWaitMs,
                        1,
                        0,
                        answered);
        return new StepFigures(
                rate, STEP_SECONDS, counts, answered, answered, atMid, atEnd, figures);
    }

    /**
     * How far over its capacity a rate can be and still hold a simulated step: the backlog rule
     * leaves growth below {@link Verdict#MIN_BACKLOG_GROWTH}, or an eighth of the precision's worth
     * of the second half's requests, unjudged.
     */
    static double deadband(double capacity) {
        double halfSeconds = STEP_SECONDS / 2.0;
        return Math.max(Verdict.MIN_BACKLOG_GROWTH / halfSeconds, capacity * 0.02 / 8) + 0.01;
    }

    static SearchSpec spec(String slo, double min, double max, double precision, long inFlight) {
        return new SearchSpec(Slo.parse(slo), min, max, 10_000, 1_000, precision, inFlight);
    }

    static Outcome run(SearchSpec spec, Function<Double, StepFigures> service) {
        CapacitySearch search = new CapacitySearch(spec);
        for (int i = 0; i < 100 && search.next().isPresent(); i++) {
            Order order = search.next().get();
            search.record(service.apply(order.rate()));
        }
        assertThat(search.next()).isEmpty();
        return search.outcome().orElseThrow();
    }

    @ParameterizedTest(name = "capacity {0} in {1}..{2}")
    @CsvSource({
        "2000, 100, 4000",
        "2000, 40, 4000",
        "1234, 10, 1000000",
        "50, 1, 100",
        "99, 1, 100",
        "26, 1, 100",
        "7.5, 1, 100"
    })
    void findsTheKneeWithinThePrecisionBelowItNeverAbove(double capacity, double min, double max) {
        Outcome outcome =
                run(spec("p99 < 50ms", min, max, 0.02, 1_000_000), r -> queue(capacity, 4, r));

        assertThat(outcome.end()).isEqualTo(End.FOUND);
        assertThat(outcome.capacity()).isLessThanOrEqualTo(capacity + deadband(capacity));
        assertThat(outcome.capacity()).isGreaterThanOrEqualTo(capacity / 1.02);
        Order last = outcome.steps().get(outcome.steps().size() - 1).order();
        assertThat(last.kind()).isEqualTo(Kind.CONFIRM);
        assertThat(last.rate()).isEqualTo(outcome.capacity());
        assertThat(outcome.confirmation()).isPresent();
    }

    @ParameterizedTest(name = "capacity {0}")
    @CsvSource({"1.5", "3", "9", "20", "33", "50", "64", "80", "95", "97"})
    void aHundredfoldRangeToTwoPercentTakesAtMostTwelveSteps(double capacity) {
        Outcome outcome =
                run(spec("p99 < 50ms", 1, 100, 0.02, 1_000_000), r -> queue(capacity, 4, r));
        assertThat(outcome.end()).isEqualTo(End.FOUND);
        assertThat(outcome.steps()).hasSizeLessThanOrEqualTo(12);
    }

    /**
     * An orchestrator keeps only each step's verdict and the first step's mean latency (its
     * status): replayed through a new search, they give the same orders and the same outcome.
     */
    @Test
    void replayingRecordedVerdictsGivesTheSameStepsAndOutcome() {
        SearchSpec spec = spec("p99 < 50ms", 100, 4000, 0.02, 1_000_000);
        Outcome judged = run(spec, r -> queue(2000, 4, r));

        CapacitySearch replay = new CapacitySearch(spec);
        for (CapacitySearch.Step step : judged.steps()) {
            assertThat(replay.next()).contains(step.order());
            StepFigures kept = queue(1, step.figures().figures().meanMs(), 1);
            assertThat(replay.record(kept, step.verdict()).verdict()).isEqualTo(step.verdict());
        }

        assertThat(replay.next()).isEmpty();
        Outcome replayed = replay.outcome().orElseThrow();
        assertThat(replayed.end()).isEqualTo(judged.end());
        assertThat(replayed.capacity()).isEqualTo(judged.capacity());
        assertThat(replayed.message()).isEqualTo(judged.message());
    }

    @Test
    void growsGeometricallyThenBisects() {
        Outcome outcome =
                run(spec("p99 < 50ms", 100, 4000, 0.02, 1_000_000), r -> queue(2000, 4, r));
        assertThat(outcome.steps().get(0).order()).isEqualTo(new Order(1, 100, Kind.GROW));
        assertThat(outcome.steps().get(1).order().rate()).isEqualTo(400);
        assertThat(outcome.steps().get(2).order().rate()).isEqualTo(1600);
        assertThat(outcome.steps().get(3).order().rate()).isEqualTo(4000);
        assertThat(outcome.steps().get(3).verdict().held()).isFalse();
        assertThat(outcome.steps().get(4).order().kind()).isEqualTo(Kind.BISECT);
        assertThat(outcome.steps().get(4).order().rate()).isEqualTo(Math.sqrt(1600 * 4000));
    }

    @Test
    void aQueueThatGrowsFailsThoughItsLatencyHolds() {
        // An objective no queue of ten seconds breaks: only the backlog rule can fail the step.
        Outcome outcome =
                run(spec("p99 < 60s", 100, 4000, 0.02, 1_000_000), r -> queue(2000, 4, r));
        assertThat(outcome.end()).isEqualTo(End.FOUND);
        assertThat(outcome.capacity()).isBetween(2000 / 1.02, 2000.0);
        assertThat(outcome.steps())
                .filteredOn(step -> !step.verdict().held())
                .allSatisfy(
                        step ->
                                assertThat(step.verdict().describe())
                                        .contains("backlog grew from"));
    }

    @Test
    void aFailedConfirmationStepsDownByThePrecisionAtMostTwice() {
        // The service is steady at 2000 during the search, then only at 1900.
        int[] calls = {0};
        Function<Double, StepFigures> tiring =
                rate -> queue(++calls[0] > 10 ? 1900 : 2000, 4, rate);
        CapacitySearch search = new CapacitySearch(spec("p99 < 50ms", 100, 4000, 0.02, 1000));
        while (search.next().isPresent()) {
            search.record(tiring.apply(search.next().get().rate()));
        }
        Outcome outcome = search.outcome().orElseThrow();
        long confirmations =
                outcome.steps().stream().filter(s -> s.order().kind() == Kind.CONFIRM).count();
        assertThat(confirmations).isBetween(2L, 3L);
        assertThat(outcome.end()).isEqualTo(End.FOUND);
        assertThat(outcome.capacity()).isLessThanOrEqualTo(1900 + deadband(1900));
    }

    @Test
    void noConfirmationHoldingEndsUnconfirmed() {
        int[] calls = {0};
        CapacitySearch search = new CapacitySearch(spec("p99 < 50ms", 100, 4000, 0.02, 1000));
        while (search.next().isPresent()) {
            Order order = search.next().get();
            calls[0]++;
            search.record(queue(order.kind() == Kind.CONFIRM ? 10 : 2000, 4, order.rate()));
        }
        Outcome outcome = search.outcome().orElseThrow();
        assertThat(outcome.end()).isEqualTo(End.UNCONFIRMED);
        assertThat(outcome.steps()).filteredOn(s -> s.order().kind() == Kind.CONFIRM).hasSize(3);
        assertThat(outcome.message()).contains("no rate held its confirmation");
        assertThat(outcome.confirmation()).isEmpty();
    }

    @Test
    void aMinimumThatFailsEndsAtOnceWithItsFigures() {
        Outcome outcome = run(spec("p99 < 50ms", 3000, 8000, 0.02, 1000), r -> queue(2000, 4, r));
        assertThat(outcome.end()).isEqualTo(End.MINIMUM_FAILED);
        assertThat(outcome.steps()).hasSize(1);
        assertThat(outcome.message())
                .contains("the range's minimum, 3000/s, failed already")
                .contains("p99 < 50ms: measured");
    }

    @Test
    void aRangeTheConnectionsCannotCarryIsNamedWithTheConnectionsItNeeds() {
        // 4 ms each: 40,000/s needs 160 in flight; 50 connections hold 50.
        Outcome outcome = run(spec("p99 < 50ms", 100, 40_000, 0.02, 50), r -> queue(2000, 4, r));
        assertThat(outcome.end()).isEqualTo(End.TOO_FEW_CONNECTIONS);
        assertThat(outcome.steps()).hasSize(1);
        assertThat(outcome.message())
                .contains("needs about 160 requests in flight by Little's law")
                .contains("-c 160");
    }

    @Test
    void aMaximumThatHoldsIsTheLeastTheCapacityIs() {
        Outcome outcome = run(spec("p99 < 50ms", 100, 1000, 0.02, 1000), r -> queue(2000, 4, r));
        assertThat(outcome.end()).isEqualTo(End.RANGE_HELD);
        assertThat(outcome.capacity()).isEqualTo(1000);
        assertThat(outcome.message()).contains("at least 1000/s");
    }

    @Test
    void stoppingReportsWhatHeldSoFar() {
        CapacitySearch search = new CapacitySearch(spec("p99 < 50ms", 100, 4000, 0.02, 1000));
        search.record(queue(2000, 4, 100));
        search.record(queue(2000, 4, 400));
        search.stop();
        assertThat(search.next()).isEmpty();
        Outcome outcome = search.outcome().orElseThrow();
        assertThat(outcome.end()).isEqualTo(End.STOPPED);
        assertThat(outcome.capacity()).isEqualTo(400);
        assertThat(search.bestSoFar()).isEqualTo(400);
        assertThatThrownBy(() -> search.record(queue(2000, 4, 400)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theSloMustBoundLatencyOrErrors() {
        assertThatThrownBy(() -> Slo.parse("tps >= 1000"))
                .hasMessageContaining("bounds no latency and no errors");
        assertThatThrownBy(() -> Slo.parse("p99 < 50ms,")).hasMessageContaining("empty term");
        assertThatThrownBy(() -> Slo.parse("p99{request=a} < 50ms"))
                .hasMessageContaining("one named request");
        assertThat(Slo.parse("p99 < 50ms, errorRatio < 0.001").terms()).hasSize(2);
        assertThat(Slo.parse("tps >= 10, successRatio >= 0.99").terms()).hasSize(2);
    }
}
