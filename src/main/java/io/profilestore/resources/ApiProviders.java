package io.profilestore.resources;

import io.profilestore.resources.problems.ConstraintViolationMapper;
import io.profilestore.resources.problems.DomainExceptionMapper;
import io.profilestore.resources.problems.JsonExceptionMapper;
import io.profilestore.resources.problems.ProblemExceptionMapper;
import io.profilestore.resources.problems.UnexpectedExceptionMapper;
import io.profilestore.resources.problems.WebApplicationExceptionMapper;
import java.util.List;

/**
 * The providers around the API's resources, in one list for the application and for the fast tier's API over the
 * twins, so that the two cannot be wired apart.
 */
public final class ApiProviders {

    private ApiProviders() {
    }

    /** What checks a request before its resource reads it: the body's size, and a conditional write's If-Match. */
    public static List<Object> requestChecks() {
        return List.of(new BodyLimitFeature(), new ConditionalWriteChecks());
    }

    /** Every error answered as an RFC 9457 problem. */
    public static List<Object> problemMappers() {
        return List.of(new ProblemExceptionMapper(), new ConstraintViolationMapper(), new DomainExceptionMapper(),
                new JsonExceptionMapper(), new WebApplicationExceptionMapper(), new UnexpectedExceptionMapper());
    }
}
