package io.profilestore.limits;

import io.profilestore.api.Problem;
import io.profilestore.auth.Caller;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.Response;

/**
 * Takes a token of the caller's bucket before a limited request runs; with none left, answers 429
 * {@code rate-limited} with {@code Retry-After} (whole seconds until the next token, at least 1) at once. The
 * resource never runs, so the answer carries nothing of it (no ETag), and shows nothing that would need an audit
 * record. Registered by {@link RateLimitFeature} on reads, searches and writes.
 */
final class RateLimitFilter implements ContainerRequestFilter {

    private final CallerBuckets buckets;
    private final RateLimitMetrics metrics;
    private final RequestKind kind;

    RateLimitFilter(CallerBuckets buckets, RateLimitMetrics metrics, RequestKind kind) {
        this.buckets = buckets;
        this.metrics = metrics;
        this.kind = kind;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        var security = request.getSecurityContext();
        // authentication ran before, and refused any request without a caller
        if (security == null || !(security.getUserPrincipal() instanceof Caller caller)) {
            return;
        }
        var decision = buckets.take(caller, kind);
        metrics.count(caller, kind, decision.allowed());
        if (!decision.allowed()) {
            request.abortWith(refusal(kind, decision.retryAfterSeconds()));
        }
    }

    private static String plural(RequestKind kind) {
        return switch (kind) {
            case READ -> "reads";
            case SEARCH -> "searches";
            case WRITE -> "writes";
        };
    }

    static Response refusal(RequestKind kind, long retryAfterSeconds) {
        return Response.status(429)
                .header("Retry-After", Long.toString(retryAfterSeconds))
                .type(Problem.MEDIA)
                .entity(Problem.of(429, "rate-limited", "Too many requests",
                        "this credential's " + plural(kind) + " are past their rate limit; retry after Retry-After "
                                + "seconds" + (kind == RequestKind.WRITE ? "; nothing was changed" : "")))
                .build();
    }
}
