package io.profilestore.resources;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * Reads and drops what the application left unread of a request body (up to {@link #LINGER} bytes) before the
 * answer completes. An answer given without reading the body (a 401 before authentication, a 413 refused by its
 * Content-Length) otherwise leaves Jetty two choices: close the connection, which a client still sending meets as
 * a broken pipe, or (the answer already sent) close it after the fact, which a client reusing the kept-alive
 * connection meets as an empty reply. Web servers call this a lingering close. Larger leftovers are cut off, and so
 * are slow ones: no read starts after {@link #DRAIN_TIME_MS}, so that a client trickling a refused body holds a
 * thread that long and one read more (which waits no longer than the connection's idle timeout), not for as long as
 * it keeps trickling; its connection is closed instead. (Lowering the idle timeout for the drain would close
 * connections whose request took longer than the lowered timeout to process.)
 */
public class UnreadBodyFilter implements Filter {

    /** How much of an unread body is read and discarded. */
    static final long LINGER = 1024 * 1024;

    /** After this, no read of the drain starts. */
    static final long DRAIN_TIME_MS = 2_000;

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try {
            chain.doFilter(request, response);
        } finally {
            if (request instanceof HttpServletRequest http && hasBody(http)) {
                discard(http);
            }
        }
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    private static void discard(HttpServletRequest request) {
        var buffer = new byte[8192];
        long left = LINGER;
        long deadline = System.nanoTime() + DRAIN_TIME_MS * 1_000_000;
        try {
            var in = request.getInputStream();
            int n;
            while (left > 0 && System.nanoTime() < deadline
                    && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
                left -= n;
            }
        } catch (IOException | IllegalStateException e) {
            // the client went away, or the body was read as characters: nothing more to do here
        }
    }
}
