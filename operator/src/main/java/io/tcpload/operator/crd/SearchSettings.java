package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.tcpload.runner.contract.RunnerLimits;
import java.util.ArrayList;
import java.util.List;

/**
 * A capacity search instead of one load: the runner's {@code --search} flags. Constant-rate steps
 * run on all runners together on the connections they keep open; each step's results are merged
 * exactly and judged by the objective and the backlog, and the range is narrowed to the highest
 * rate that holds.
 */
@ValidationRule(value = SpecRules.SEARCH_RANGE, message = SpecRules.SEARCH_RANGE_MESSAGE)
public class SearchSettings {
    /** The precision's syntax: a fraction or a percentage. */
    public static final String PRECISION_PATTERN = "^[0-9]+(\\.[0-9]+)?%?$";

    /** A precision such as {@code 12.5%}. */
    public static final int PRECISION_MAX = 20;

    @Required
    @Size(min = 1, max = SpecLimits.THRESHOLDS_MAX)
    @JsonPropertyDescription(
            "The objective every step must hold, thresholds in the syntax of thresholds ('p99 <"
                    + " 50ms', 'errorRatio < 0.001'), at least one on latency or errors, none on"
                    + " one named request.")
    private List<@Size(max = SpecLimits.THRESHOLD_MAX) @Pattern(ThresholdSyntax.PATTERN) String>
            slo = new ArrayList<>();

    @Required
    @Min(1)
    @Max(RunnerLimits.RATE_MAX)
    @JsonPropertyDescription(
            "The lowest rate tried, the first step's: requests per second for the whole test.")
    private Long minRate;

    @Required
    @Min(1)
    @Max(RunnerLimits.RATE_MAX)
    @JsonPropertyDescription("The highest rate tried, requests per second for the whole test.")
    private Long maxRate;

    @Pattern(Durations.POSITIVE_PATTERN)
    @Size(max = SpecLimits.DURATION_MAX)
    @Default("10s")
    @JsonPropertyDescription("How long each step is measured: whole seconds, at least 2s.")
    private String step = "10s";

    @Pattern(Durations.PATTERN)
    @Size(max = SpecLimits.DURATION_MAX)
    @Default("1s")
    @JsonPropertyDescription("How long each step runs first, left out of its figures.")
    private String warmup = "1s";

    @Pattern(PRECISION_PATTERN)
    @Size(max = PRECISION_MAX)
    @Default("2%")
    @JsonPropertyDescription(
            "Narrow the range until the rates that held and failed are within this of each"
                    + " other: 2% or 0.02, from 0.1% to 50%.")
    private String precision = "2%";

    public SearchSettings() {}

    public SearchSettings(List<String> slo, Long minRate, Long maxRate) {
        this.slo = slo;
        this.minRate = minRate;
        this.maxRate = maxRate;
    }

    public List<String> getSlo() {
        return slo;
    }

    public void setSlo(List<String> slo) {
        this.slo = slo;
    }

    public Long getMinRate() {
        return minRate;
    }

    public void setMinRate(Long minRate) {
        this.minRate = minRate;
    }

    public Long getMaxRate() {
        return maxRate;
    }

    public void setMaxRate(Long maxRate) {
        this.maxRate = maxRate;
    }

    public String getStep() {
        return step;
    }

    public void setStep(String step) {
        this.step = step;
    }

    public String getWarmup() {
        return warmup;
    }

    public void setWarmup(String warmup) {
        this.warmup = warmup;
    }

    public String getPrecision() {
        return precision;
    }

    public void setPrecision(String precision) {
        this.precision = precision;
    }
}
