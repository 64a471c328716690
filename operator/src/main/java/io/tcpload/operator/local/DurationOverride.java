package io.tcpload.operator.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.operator.children.RunnerInvocations;
import io.tcpload.operator.crd.Durations;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.format.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code run --duration}: a shorter (or longer) run of the same test, for trying a test out and for
 * CI. A fixed duration is replaced; a rate schedule keeps its shape, every stage shortened in the
 * same proportion. Pure: the spec given is not changed.
 */
final class DurationOverride {
    private static final Pattern SYNTAX = Pattern.compile(Durations.PATTERN);
    private static final ObjectMapper COPIER = new ObjectMapper();

    private DurationOverride() {}

    /** Why {@code duration} is not a duration, or empty when it is. */
    static Optional<String> problem(String duration) {
        if (!SYNTAX.matcher(duration).matches()) {
            return Optional.of("'" + duration + "' is not a duration such as 10s, 2m or 500ms");
        }
        try {
            Quantities.durationMs("--duration", duration);
        } catch (IllegalArgumentException e) {
            return Optional.of("must be at least 1ms");
        }
        return Optional.empty();
    }

    /** A copy of {@code spec} that runs for {@code duration} (checked with {@link #problem}). */
    static TcpLoadTestSpec apply(TcpLoadTestSpec spec, String duration) {
        TcpLoadTestSpec copy = COPIER.convertValue(spec, TcpLoadTestSpec.class);
        if (copy.getStages() == null || copy.getStages().isEmpty()) {
            copy.setDuration(duration);
            return copy;
        }
        long wantedMs = Quantities.durationMs("--duration", duration);
        long totalMs = RunnerInvocations.totalDurationMs(copy);
        List<Stage> scaled = new ArrayList<>();
        for (Stage stage : copy.getStages()) {
            long ms = Quantities.durationMs("stages.duration", stage.getDuration());
            long shortened =
                    totalMs == 0 ? 0 : Math.max(1, Math.round((double) ms * wantedMs / totalMs));
            scaled.add(new Stage(shortened + "ms", stage.getRate()));
        }
        copy.setStages(scaled);
        return copy;
    }
}
