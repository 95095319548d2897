package io.profilestore.audit;

import io.profilestore.api.Problem;
import jakarta.annotation.Priority;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import java.util.TreeSet;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * HEAD is answered 405, before authentication. Jersey answers a HEAD by running the GET and dropping its body
 * before the audit sees it, yet the Content-Length still tells a found person from an unknown one: a look-up
 * that would escape the audit trail. Nothing of ours needs HEAD.
 */
public class HeadRefusal implements Feature {

    private static final String HEAD_ASKED = HeadRefusal.class.getName() + ".asked";

    @Override
    public boolean configure(FeatureContext context) {
        context.register(new Notice());
        context.register(new Refusal());
        return true;
    }

    /** Before matching, the only moment the method still reads HEAD: Jersey routes a HEAD as its GET. */
    @PreMatching
    @Priority(Priorities.AUTHENTICATION - 100)
    static final class Notice implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            if (HttpMethod.HEAD.equals(request.getMethod())) {
                request.setProperty(HEAD_ASKED, Boolean.TRUE);
            }
        }
    }

    /** After matching, so that the 405 can name the methods of the path (RFC 9110 wants them in Allow). */
    @Priority(Priorities.AUTHENTICATION - 100)
    static final class Refusal implements ContainerRequestFilter {
        @Override
        public void filter(ContainerRequestContext request) {
            if (request.getProperty(HEAD_ASKED) == null) {
                return;
            }
            request.abortWith(Response.status(405)
                    .header("Allow", allowed(request))
                    .type(Problem.MEDIA)
                    .entity(Problem.of(405, "method-not-allowed", "Method not allowed",
                            "HEAD is not answered: send the GET, which the audit trail records"))
                    .build());
        }
    }

    private static String allowed(ContainerRequestContext request) {
        var methods = new TreeSet<String>();
        if (request.getUriInfo() instanceof ExtendedUriInfo extended && extended.getMatchedResourceMethod() != null) {
            extended.getMatchedResourceMethod().getParent().getResourceMethods().stream()
                    .map(ResourceMethod::getHttpMethod)
                    .filter(method -> !HttpMethod.HEAD.equals(method) && !HttpMethod.OPTIONS.equals(method))
                    .forEach(methods::add);
        }
        return String.join(", ", methods);
    }
}
