package io.profilestore.resources;

import io.profilestore.api.Problem;
import io.profilestore.resources.problems.ProblemException;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Enforces {@link BodyLimit}: a declared Content-Length over the limit is refused without parsing, and a body that
 * grows past it while being read (chunked) is cut off. What the client still sends is drained by
 * {@link UnreadBodyFilter}, so that it sees the 413.
 */
public class BodyLimitFeature implements DynamicFeature {

    @Override
    public void configure(ResourceInfo resource, FeatureContext context) {
        var limit = resource.getResourceMethod().getAnnotation(BodyLimit.class);
        if (limit != null) {
            context.register(new Interceptor(limit.value()));
        }
    }

    static ProblemException tooLarge(long limit) {
        return new ProblemException(Problem.of(413, "body-too-large", "Content too large",
                "the request body is larger than " + limit + " bytes").with(Map.of("limit", limit)));
    }

    private record Interceptor(long limit) implements ReaderInterceptor {
        @Override
        public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
            String declared = context.getHeaders().getFirst(HttpHeaders.CONTENT_LENGTH);
            if (declared != null && declared.matches("\\d{1,18}") && Long.parseLong(declared) > limit) {
                throw tooLarge(limit);
            }
            context.setInputStream(new Limited(context.getInputStream(), limit));
            return context.proceed();
        }
    }

    private static final class Limited extends FilterInputStream {
        private final long limit;
        private long read;

        Limited(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(long n) {
            read += n;
            if (read > limit) {
                throw tooLarge(limit);
            }
        }
    }
}
