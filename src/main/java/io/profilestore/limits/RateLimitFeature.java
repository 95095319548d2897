package io.profilestore.limits;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;

/**
 * Puts {@link RateLimitFilter} on the limited routes: every GET of the API ({@code /v1/...}: profiles, users,
 * merges, the audit trail, the caller itself) as a read, GET and POST {@code /v1/search} as a search, and every other
 * POST, PUT, PATCH and DELETE of {@code /v1} as a write (a refused write changes nothing). It runs after
 * authentication and the roles' check (a caller refused those gets 401 or 403, and spends no token) and before the
 * audit's filter, so a refused look-up has no record: it showed nothing.
 */
public final class RateLimitFeature implements DynamicFeature {

    /** After {@link Priorities#AUTHORIZATION} (the roles' check), before the audit's filter (authorization + 10). */
    static final int PRIORITY = Priorities.AUTHORIZATION + 5;

    private final CallerBuckets buckets;
    private final RateLimitMetrics metrics;

    public RateLimitFeature(CallerBuckets buckets, RateLimitMetrics metrics) {
        this.buckets = buckets;
        this.metrics = metrics;
    }

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        var kind = kindOf(resource);
        if (kind != null) {
            context.register(new RateLimitFilter(buckets, metrics, kind), PRIORITY);
        }
    }

    /** The kind of a resource method's requests, or null when it is not limited. */
    static RequestKind kindOf(ResourceInfo resource) {
        var type = resource.getResourceClass();
        var method = resource.getResourceMethod();
        var path = type == null ? null : type.getAnnotation(Path.class);
        if (path == null || method == null || !path.value().startsWith("/v1")) {
            return null;
        }
        boolean get = method.isAnnotationPresent(GET.class);
        if (path.value().startsWith("/v1/search") && (get || method.isAnnotationPresent(POST.class))
                || method.isAnnotationPresent(LimitedAsSearch.class)) {
            return RequestKind.SEARCH;
        }
        if (get) {
            return RequestKind.READ;
        }
        boolean change = method.isAnnotationPresent(POST.class) || method.isAnnotationPresent(PUT.class)
                || method.isAnnotationPresent(PATCH.class) || method.isAnnotationPresent(DELETE.class);
        return change ? RequestKind.WRITE : null;
    }
}
