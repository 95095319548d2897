package io.profilestore.resources.problems;

import io.profilestore.api.Problem;

/** Thrown by resources for a request they refuse; answered as the problem it carries. */
public class ProblemException extends RuntimeException {

    private final Problem problem;

    public ProblemException(Problem problem) {
        super(problem.title() + ": " + problem.detail(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    public static ProblemException badRequest(String detail) {
        return new ProblemException(Problems.badRequest(detail));
    }
}
