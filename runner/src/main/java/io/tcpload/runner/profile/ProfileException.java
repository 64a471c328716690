package io.tcpload.runner.profile;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when a profile cannot be used; carries every problem found, not just the first. */
public final class ProfileException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<ProfileProblem> problems;

    public ProfileException(List<ProfileProblem> problems) {
        super(problems.stream().map(ProfileProblem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<ProfileProblem> problems() {
        return problems;
    }
}
