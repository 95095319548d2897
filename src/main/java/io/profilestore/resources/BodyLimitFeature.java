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
 * grows past it while being read (chunked) is cut off. Before the 413 leaves, up to {@link #LINGER} bytes of the
 * rest are read and thrown away (as web servers' "lingering close" does): a client still sending its body would
 * otherwise meet a closed connection and a broken pipe instead of the answer. What is larger than that is cut off.
 */
public class BodyLimitFeature implements DynamicFeature {

    /** How much of a refused body is read and discarded so that the client sees the 413. */
    static final long LINGER = 1024 * 1024;

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
                discard(context.getInputStream(), LINGER);
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
                discard(in, LINGER - read);
                throw tooLarge(limit);
            }
        }
    }

    /** Reads and drops up to {@code most} bytes, stopping early at the end of the body; the 413 stands either way. */
    private static void discard(InputStream in, long most) {
        var buffer = new byte[8192];
        long left = most;
        try {
            int n;
            while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
                left -= n;
            }
        } catch (IOException e) {
            // the client went away or broke off: nothing more to read
        }
    }
}
