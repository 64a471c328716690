package io.tcpload.runner.plan;

import java.util.List;

/** An invocation that cannot run, with every reason, each naming its flag. */
public final class PlanException extends Exception {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public PlanException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, a sentence that names its flag. */
    public List<String> problems() {
        return problems;
    }
}
