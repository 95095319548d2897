package io.profilestore.resources;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * Gives the request log the path without its matrix parameters ({@code ;name=value}), as a request attribute: the
 * URI as sent may carry a credential or a name there (the query string is never logged either). The request log's
 * format reads {@code %reqAttribute{loggedPath}}; a request Jetty refuses before any filter runs logs "-".
 */
public class LoggedPathFilter implements Filter {

    public static final String ATTRIBUTE = "loggedPath";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http) {
            request.setAttribute(ATTRIBUTE, withoutMatrixParameters(http.getRequestURI()));
        }
        chain.doFilter(request, response);
    }

    static String withoutMatrixParameters(String uri) {
        return uri.replaceAll(";[^/]*", "");
    }
}
