package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.crd.CapacityStatus;
import io.tcpload.operator.crd.SearchStep;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.search.Verdict;
import io.tcpload.runner.slo.Slo;
import io.tcpload.runner.stats.Counts;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchSummariesTest {
    private static CapacitySearch.Step step(int number, boolean held) {
        StepFigures figures =
                new StepFigures(
                        1000.0 + number,
                        2,
                        Counts.ZERO,
                        999.5,
                        1000,
                        3,
                        held ? 3 : 90,
                        new Slo.Figures(1.2345, 2, 3, 4, 5, 6, 1.5, 7, 1, 0, 1000));
        return new CapacitySearch.Step(
                new CapacitySearch.Order(number, 1000.0 + number, CapacitySearch.Kind.BISECT),
                figures,
                new Verdict(held, held ? List.of() : List.of("backlog grew from 3 to 90")));
    }

    @Test
    void aStepsRowSaysWhatTheReportSays() {
        SearchStep row = SearchSummaries.step(step(7, false));

        assertThat(row.getNumber()).isEqualTo(7);
        assertThat(row.getKind()).isEqualTo("bisect");
        assertThat(row.getTargetRate()).isEqualTo(1007.0);
        assertThat(row.getAchievedRate()).isEqualTo(999.5);
        assertThat(row.getBacklogAtEnd()).isEqualTo(90);
        assertThat(row.getHeld()).isFalse();
        assertThat(row.getReasons()).containsExactly("backlog grew from 3 to 90");
    }

    @Test
    void theStatusKeepsTheFirstAndTheLastStepsPastItsBound() {
        List<CapacitySearch.Step> steps = new ArrayList<>();
        for (int n = 1; n <= CapacityStatus.STEPS_MAX + 5; n++) {
            steps.add(step(n, true));
        }

        List<SearchStep> rows = SearchSummaries.steps(steps);

        assertThat(rows).hasSize(CapacityStatus.STEPS_MAX);
        assertThat(rows.get(0).getNumber()).isEqualTo(1);
        assertThat(rows.get(CapacityStatus.STEPS_MAX / 2 - 1).getNumber())
                .isEqualTo(CapacityStatus.STEPS_MAX / 2);
        assertThat(rows.get(CapacityStatus.STEPS_MAX / 2).getNumber())
                .isEqualTo(CapacityStatus.STEPS_MAX / 2 + 6);
        assertThat(rows.get(rows.size() - 1).getNumber()).isEqualTo(CapacityStatus.STEPS_MAX + 5);
    }
}
