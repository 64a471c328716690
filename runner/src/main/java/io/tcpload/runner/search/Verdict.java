package io.tcpload.runner.search;

import io.tcpload.runner.slo.Threshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a step held, and why not: the objective's terms that missed and the backlog rules.
 * Immutable; {@link #judge} is pure.
 *
 * @param held whether the step held its rate within the objective
 * @param reasons why it did not, each a sentence; empty when it held
 */
public record Verdict(boolean held, List<String> reasons) {

    /**
     * The least backlog growth over a step's second half judged as over capacity: below it, a
     * sample taken a few milliseconds late reads as growth.
     */
    static final long MIN_BACKLOG_GROWTH = 8;

    public Verdict {
        reasons = List.copyOf(reasons);
    }

    /**
     * Judges a step by the objective and by the backlog: a backlog that grew through the second
     * half (from the least it was in the first) by more than an eighth of the precision's worth of
     * the second half's requests (so that a rate a quarter of a percent over capacity fails a step
     * of ten seconds to 2%), or responses over the second half slower than the target by more than
     * the precision, mean over capacity even when the latency of what was answered still holds.
     */
    public static Verdict judge(SearchSpec spec, StepFigures step) {
        List<String> reasons = new ArrayList<>();
        List<Threshold.Miss> misses = spec.slo().misses(step.figures(), step.counts());
        // The objective's latency terms already say when there was nothing to measure; an
        // objective of ratios alone can still hold on a step of socket errors only.
        if (step.counts().requests() == 0
                && misses.stream().allMatch(m -> m.unmeasured() == null)) {
            reasons.add("no response");
        }
        for (Threshold.Miss miss : misses) {
            reasons.add(miss.message());
        }
        double halfSeconds = step.seconds() - step.seconds() / 2;
        long allowed =
                Math.max(
                        MIN_BACKLOG_GROWTH,
                        (long) Math.ceil(step.targetRate() * halfSeconds * spec.precision() / 8));
        if (step.backlogGrewBeyond(allowed)) {
            reasons.add(
                    "backlog grew from "
                            + step.backlogAtMid()
                            + " to "
                            + step.backlogAtEnd()
                            + " over the second half");
        }
        if (step.secondHalfRate() < step.targetRate() * (1 - spec.precision())) {
            reasons.add(
                    String.format(
                            Locale.ROOT,
                            "%s/s answered over the second half, below the %s/s asked",
                            SearchSpec.formatRate(step.secondHalfRate()),
                            SearchSpec.formatRate(step.targetRate())));
        }
        return new Verdict(reasons.isEmpty(), reasons);
    }

    /** {@code held}, or the reasons joined. */
    public String describe() {
        return held ? "held" : String.join("; ", reasons);
    }
}
