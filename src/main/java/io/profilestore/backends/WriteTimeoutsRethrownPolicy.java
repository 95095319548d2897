package io.profilestore.backends;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.internal.core.retry.DefaultRetryPolicy;

/**
 * The driver's default retries, but a write that timed out is handed to the caller at once: the write path retries
 * it itself and must know that it may have been applied. (The default retries a timed-out batch log write, and a
 * refusal on the second try would then read as "not applied" although the first may land.)
 */
public class WriteTimeoutsRethrownPolicy extends DefaultRetryPolicy {

    public WriteTimeoutsRethrownPolicy(DriverContext context, String profileName) {
        super(context, profileName);
    }

    @Override
    @SuppressWarnings("deprecation")
    public RetryDecision onWriteTimeout(Request request, ConsistencyLevel consistency, WriteType writeType,
            int blockFor, int received, int retryCount) {
        return RetryDecision.RETHROW;
    }
}
