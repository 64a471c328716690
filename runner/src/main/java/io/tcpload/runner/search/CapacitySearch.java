package io.tcpload.runner.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The search for the highest rate a service sustains within its objective, as a state machine apart
 * from any load: {@link #next} says the step to run, {@link #record} is told what it measured,
 * until {@link #next} is empty and {@link #outcome} holds the answer. Pure: a test drives it with a
 * simulated service, the runner with its engine, an orchestrator with its runners' merged results.
 *
 * <p>The rate grows from the range's minimum by {@link SearchSpec#GROWTH} (never past the maximum)
 * until a step fails; the rates that held and failed are then bisected (geometrically) until they
 * are within the precision of each other; the highest rate that held is then held again for a
 * confirmation step of its own. If the confirmation fails, the rate steps down by the precision and
 * is confirmed again, at most twice. So a search to 2% over a hundredfold range takes at most
 * twelve steps when each confirmation holds.
 *
 * <p>After the first step, the range is checked against the test's connections by Little's law: at
 * the range's maximum, requests in flight would be that rate times the latency seen, and more than
 * the connections can hold means the client, not the service, would limit the rate found.
 *
 * <p>Not thread-safe: one owner drives it.
 */
public final class CapacitySearch {
    /** The most confirmations after the first: each steps down by the precision. */
    static final int MAX_STEP_DOWNS = 2;

    /** What a step is for. */
    public enum Kind {
        /** Growing from the minimum until a step fails. */
        GROW("grow"),
        /** Bisecting between the rate that held and the one that failed. */
        BISECT("bisect"),
        /** Holding the rate found for a step of its own. */
        CONFIRM("confirm");

        private final String written;

        Kind(String written) {
            this.written = written;
        }

        /** The kind as the report and the JSON write it. */
        public String written() {
            return written;
        }
    }

    /** How a search ended. */
    public enum End {
        /** A rate below the range's maximum held its confirmation. */
        FOUND,
        /** The range's maximum itself held, confirmation included: the capacity is at least it. */
        RANGE_HELD,
        /** The range's minimum failed already: there is nothing to search below it. */
        MINIMUM_FAILED,
        /** The range needs more requests in flight than the connections hold (Little's law). */
        TOO_FEW_CONNECTIONS,
        /** No confirmation held, the step-downs included. */
        UNCONFIRMED,
        /** Stopped before its end (a signal, a stop). */
        STOPPED
    }

    /**
     * One step asked for.
     *
     * @param number from 1, in the order run
     * @param rate requests per second for the whole test
     * @param kind what it is for
     */
    public record Order(int number, double rate, Kind kind) {}

    /** One step run: what was asked, what it measured and the verdict. */
    public record Step(Order order, StepFigures figures, Verdict verdict) {}

    /**
     * The answer.
     *
     * @param end how the search ended
     * @param capacity the rate found (the confirmation's that held); for {@link End#MINIMUM_FAILED}
     *     and {@link End#TOO_FEW_CONNECTIONS} 0, for {@link End#UNCONFIRMED} the last rate tried,
     *     for {@link End#STOPPED} the highest that held so far (0 if none)
     * @param message one sentence on how it ended, for the report and the status
     * @param steps every step, in order
     */
    public record Outcome(End end, double capacity, String message, List<Step> steps) {
        public Outcome {
            steps = List.copyOf(steps);
        }

        /** The confirmation step the capacity rests on, when one held. */
        public Optional<Step> confirmation() {
            if (end != End.FOUND && end != End.RANGE_HELD) {
                return Optional.empty();
            }
            return Optional.of(steps.get(steps.size() - 1));
        }
    }

    private final SearchSpec spec;
    private final List<Step> steps = new ArrayList<>();
    private Order pending;
    private double held = Double.NaN;
    private double failed = Double.NaN;
    private int stepDowns;
    private Outcome outcome;

    public CapacitySearch(SearchSpec spec) {
        this.spec = spec;
        this.pending = new Order(1, spec.minRate(), Kind.GROW);
    }

    public SearchSpec spec() {
        return spec;
    }

    /** The step to run now; empty once the search has ended. */
    public Optional<Order> next() {
        return Optional.ofNullable(pending);
    }

    /** The steps run so far. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The highest rate that held so far (a confirmation's or a step's); 0 before any. */
    public double bestSoFar() {
        return Double.isNaN(held) ? 0 : held;
    }

    /**
     * The figures of the step {@link #next} gave: it is judged, and the next step chosen.
     *
     * @return the step with its verdict
     * @throws IllegalStateException when the search has ended
     */
    public Step record(StepFigures figures) {
        return record(figures, Verdict.judge(spec, figures));
    }

    /**
     * The figures of the step {@link #next} gave, judged already: an orchestrator that keeps each
     * step's verdict (a status) replays its steps through a new search to learn the next one, and
     * gets the same next steps and outcome as the search that judged them. Of the figures, only the
     * first step's mean latency is read (for the Little's law check).
     *
     * @return the step with its verdict
     * @throws IllegalStateException when the search has ended
     */
    public Step record(StepFigures figures, Verdict verdict) {
        if (pending == null) {
            throw new IllegalStateException("the search has ended");
        }
        Order order = pending;
        Step step = new Step(order, figures, verdict);
        steps.add(step);
        pending = null;
        boolean ok = step.verdict().held();
        switch (order.kind()) {
            case GROW -> grown(step, ok);
            case BISECT -> bisected(order, ok);
            case CONFIRM -> confirmed(order, ok);
        }
        return step;
    }

    /** Ends the search where it stands: what held so far is reported as such. */
    public void stop() {
        if (outcome == null) {
            pending = null;
            outcome =
                    new Outcome(
                            End.STOPPED,
                            bestSoFar(),
                            "stopped after "
                                    + steps.size()
                                    + (steps.size() == 1 ? " step" : " steps")
                                    + (Double.isNaN(held)
                                            ? "; no rate held"
                                            : "; the highest rate that held was "
                                                    + SearchSpec.formatRate(held)
                                                    + "/s, not confirmed"),
                            steps);
        }
    }

    /** The answer; empty while steps remain. */
    public Optional<Outcome> outcome() {
        return Optional.ofNullable(outcome);
    }

    private void grown(Step step, boolean ok) {
        double rate = step.order().rate();
        if (steps.size() == 1) {
            if (!ok) {
                end(
                        End.MINIMUM_FAILED,
                        0,
                        "the range's minimum, "
                                + SearchSpec.formatRate(rate)
                                + "/s, failed already ("
                                + step.verdict().describe()
                                + "); lower it");
                return;
            }
            long needed = connectionsNeeded(step.figures());
            if (needed > spec.concurrency()) {
                end(
                        End.TOO_FEW_CONNECTIONS,
                        0,
                        String.format(
                                Locale.ROOT,
                                "the range's maximum, %s/s, needs about %d requests in flight by"
                                        + " Little's law (at the %.2f ms mean latency of the first"
                                        + " step), and the connections hold %d; give at least -c"
                                        + " %d (or --pipeline), or lower the maximum",
                                SearchSpec.formatRate(spec.maxRate()),
                                needed,
                                step.figures().figures().meanMs(),
                                spec.concurrency(),
                                needed));
                return;
            }
        }
        if (!ok) {
            failed = rate;
            bisectOrConfirm();
            return;
        }
        held = rate;
        if (rate >= spec.maxRate()) {
            confirm(rate);
            return;
        }
        pending =
                new Order(
                        steps.size() + 1,
                        Math.min(spec.maxRate(), rate * SearchSpec.GROWTH),
                        Kind.GROW);
    }

    private void bisected(Order order, boolean ok) {
        if (ok) {
            held = order.rate();
        } else {
            failed = order.rate();
        }
        bisectOrConfirm();
    }

    private void bisectOrConfirm() {
        if (failed / held <= 1 + spec.precision()) {
            confirm(held);
            return;
        }
        pending = new Order(steps.size() + 1, Math.sqrt(held * failed), Kind.BISECT);
    }

    private void confirm(double rate) {
        pending = new Order(steps.size() + 1, rate, Kind.CONFIRM);
    }

    private void confirmed(Order order, boolean ok) {
        double rate = order.rate();
        if (ok) {
            boolean atMax = rate >= spec.maxRate();
            end(
                    atMax ? End.RANGE_HELD : End.FOUND,
                    rate,
                    atMax
                            ? "the range's maximum held, confirmation included: the capacity is at"
                                    + " least "
                                    + SearchSpec.formatRate(rate)
                                    + "/s; raise the maximum to find it"
                            : SearchSpec.formatRate(rate)
                                    + "/s held, and held again for its confirmation step");
            return;
        }
        if (stepDowns >= MAX_STEP_DOWNS) {
            end(
                    End.UNCONFIRMED,
                    rate,
                    "no rate held its confirmation; the last tried was "
                            + SearchSpec.formatRate(rate)
                            + "/s ("
                            + MAX_STEP_DOWNS
                            + " steps down by the precision): the service is not steady at these"
                            + " rates");
            return;
        }
        stepDowns++;
        held = Double.NaN;
        confirm(rate * (1 - spec.precision()));
    }

    /**
     * Little's law: requests in flight at the range's maximum, at the latency of the first step
     * (time in the system grows with the rate, so this is the least it needs).
     */
    private long connectionsNeeded(StepFigures first) {
        return (long) Math.ceil(spec.maxRate() * first.figures().meanMs() / 1000.0);
    }

    private void end(End end, double capacity, String message) {
        pending = null;
        outcome = new Outcome(end, capacity, message, steps);
    }
}
