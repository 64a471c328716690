package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ProblemsTest {

    private static List<ProfileProblem> errorsOf(Problems problems) {
        try {
            problems.throwIfErrors();
            throw new AssertionError("expected errors");
        } catch (ProfileException e) {
            return e.problems();
        }
    }

    @Test
    void theErrorsWithTheLowestLinesAreListedWheneverTheyWereFound() {
        Problems problems = new Problems("p.ini");
        for (int line = 250; line >= 1; line--) {
            problems.error(line, "", "bad " + line + ".");
        }

        List<ProfileProblem> listed = errorsOf(problems);

        assertThat(listed).hasSize(Problems.MAX_LISTED + 1);
        assertThat(listed.subList(0, Problems.MAX_LISTED))
                .extracting(ProfileProblem::line)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 100).boxed().toList());
        assertThat(listed.get(Problems.MAX_LISTED).toString())
                .isEqualTo("p.ini: 150 more errors are not listed.");
    }

    @Test
    void problemsOnOneLineKeepTheOrderTheyWereFoundIn() {
        Problems problems = new Problems("p.ini");
        problems.error(3, "b", "second.");
        problems.error(2, "a", "first.");
        problems.error(3, "c", "third.");

        assertThat(errorsOf(problems))
                .extracting(ProfileProblem::key)
                .containsExactly("a", "b", "c");
    }

    @Test
    void aMessageOfAProblemNotListedIsNeverWorded() {
        Problems problems = new Problems("p.ini");
        for (int line = 1; line <= Problems.MAX_LISTED; line++) {
            problems.error(line, "", "bad.");
        }

        problems.error(
                500,
                "",
                () -> {
                    throw new AssertionError("worded although it is not listed");
                });

        assertThat(errorsOf(problems))
                .last()
                .extracting(ProfileProblem::message)
                .isEqualTo("1 more error is not listed.");
    }

    @Test
    void warningsAreListedLikeErrorsAndNoErrorsThrowNothing() {
        Problems problems = new Problems("p.ini");
        problems.warn(1, "", "doubtful.");

        assertThat(problems.warnings()).extracting(ProfileProblem::line).containsExactly(1);
        assertThatCode(problems::throwIfErrors).doesNotThrowAnyException();
    }
}
