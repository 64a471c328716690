package io.tcpload.runner.search;

import io.tcpload.runner.slo.Slo;
import java.util.Locale;
import java.util.Objects;

/**
 * What a capacity search looks for and how: the objective each step is held to, the range of rates
 * (the whole test's), each step's length and warm-up, the precision to narrow the range to, and how
 * many requests the test's connections can hold in flight. Immutable.
 *
 * @param slo the objective every step must hold
 * @param minRate the lowest rate tried, the first step's, requests per second
 * @param maxRate the highest rate tried
 * @param stepMs how long each step is measured (its warm-up apart)
 * @param warmupMs how long each step runs first, left out of its figures
 * @param precision the search ends when the rate that held and the one that did not are within this
 *     fraction of each other (0.02: 2%); the confirmation steps down by it
 * @param concurrency requests the test's connections can have in flight at once (connections times
 *     pipeline), for the Little's law check of the range
 */
public record SearchSpec(
        Slo slo,
        double minRate,
        double maxRate,
        long stepMs,
        long warmupMs,
        double precision,
        long concurrency,
        long firstWarmupMs) {

    /** The default step: long enough that a queue growing at 1% of the rate shows. */
    public static final long DEFAULT_STEP_MS = 10_000;

    /** The default warm-up of each step. */
    public static final long DEFAULT_WARMUP_MS = 1_000;

    /** The default precision, 2%. */
    public static final double DEFAULT_PRECISION = 0.02;

    /** The shortest step: two whole seconds, so that it has a second half to judge its backlog. */
    public static final long MIN_STEP_MS = 2_000;

    /** The finest and the coarsest precision taken. */
    public static final double MIN_PRECISION = 0.001;

    public static final double MAX_PRECISION = 0.5;

    /**
     * The factor by which the rate grows until a step fails. Large, so that a hundredfold range
     * takes five steps up and the bisection that follows about seven: twelve in all to 2%.
     */
    public static final double GROWTH = 4;

    public SearchSpec {
        Objects.requireNonNull(slo, "slo");
        if (!(minRate > 0) || !(maxRate > minRate)) {
            throw new IllegalArgumentException(
                    "the range must be MIN:MAX with 0 < MIN < MAX, not "
                            + formatRate(minRate)
                            + ":"
                            + formatRate(maxRate));
        }
        if (stepMs < MIN_STEP_MS || stepMs % 1000 != 0) {
            throw new IllegalArgumentException("a step lasts whole seconds, at least 2");
        }
        if (warmupMs < 0) {
            throw new IllegalArgumentException("the warm-up must not be negative");
        }
        if (!(precision >= MIN_PRECISION && precision <= MAX_PRECISION)) {
            throw new IllegalArgumentException("the precision must be from 0.1% to 50%");
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be positive");
        }
        if (firstWarmupMs < 0) {
            throw new IllegalArgumentException("the first warm-up must not be negative");
        }
    }

    /** A search whose first step warms up as long as the others. */
    public SearchSpec(
            Slo slo,
            double minRate,
            double maxRate,
            long stepMs,
            long warmupMs,
            double precision,
            long concurrency) {
        this(slo, minRate, maxRate, stepMs, warmupMs, precision, concurrency, 0);
    }

    /**
     * The warm-up of step {@code number} (from 1): the first's is longer by {@link #firstWarmupMs}.
     */
    public long warmupMs(int number) {
        return number == 1 ? warmupMs + firstWarmupMs : warmupMs;
    }

    /** {@code 1960}, {@code 12.5}: a rate as the report writes it. */
    public static String formatRate(double rate) {
        if (rate == Math.rint(rate) && Math.abs(rate) < 1e15) {
            return String.valueOf((long) rate);
        }
        return String.format(Locale.ROOT, rate >= 100 ? "%.0f" : "%.3g", rate);
    }
}
