package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.tcpload.runner.contract.RunnerLimits;

/**
 * One step of a rate schedule: the rate moves linearly from the previous stage's rate (0 for the
 * first) to {@code rate} over {@code duration}.
 */
public class Stage {
    @Required
    @Pattern(Durations.POSITIVE_PATTERN)
    @Size(max = SpecLimits.DURATION_MAX)
    @JsonPropertyDescription(
            "How long the stage lasts: 30s, 2m, 500ms, 1h (a bare number is seconds).")
    private String duration;

    @Required
    @Min(0)
    @Max(RunnerLimits.RATE_MAX)
    @JsonPropertyDescription(
            "Requests per second reached at the end of the stage, for the whole test (split across"
                    + " runners).")
    private Long rate;

    public Stage() {}

    public Stage(String duration, Long rate) {
        this.duration = duration;
        this.rate = rate;
    }

    public String getDuration() {
        return duration;
    }

    public void setDuration(String duration) {
        this.duration = duration;
    }

    public Long getRate() {
        return rate;
    }

    public void setRate(Long rate) {
        this.rate = rate;
    }
}
