package io.profilestore.resources.problems;

import io.profilestore.api.Problem;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Anything else is our bug: logged with an id the caller gets too, answered without details. */
public class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    @Override
    public Response toResponse(Throwable exception) {
        var carried = Problems.carried(exception);
        if (carried.isPresent()) {
            return Problems.response(carried.get());
        }
        String id = Long.toHexString(ThreadLocalRandom.current().nextLong());
        LOG.error("unexpected error {}", id, exception);
        return Problems.response(Problem.of(500, "internal-error", "Internal server error",
                "an unexpected error occurred; it was logged as " + id).with(Map.of("errorId", id)));
    }
}
