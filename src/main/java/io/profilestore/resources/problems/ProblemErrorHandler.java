package io.profilestore.resources.problems;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.Problem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.charset.Charset;
import java.util.List;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The errors Jetty answers itself, before Jersey and its exception mappers see the request (a method the
 * connector does not allow, headers too large, an ambiguous path, a malformed request), as problems like every
 * other error, whatever the client accepts; never an HTML page, never a stack or a cause.
 */
public class ProblemErrorHandler extends ErrorHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every method gets its problem (Jetty's default writes a body for GET, POST and HEAD only). */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
            Callback callback) {
        writeProblem(response, code, callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE));
        // a request Jetty could not take is never followed on its connection: the client must know
        fields.put(new HttpField(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString()));
        return ByteBuffer.wrap(body(status));
    }

    static void writeProblem(Response response, int code, Callback callback) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE);
        // what Jetty refuses itself leaves the request's body unread: the connection closes after this answer, and
        // says so, or the client would send its next request on a connection about to go (these answers are rare)
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        response.write(true, ByteBuffer.wrap(body(code)), callback);
    }

    /** The same inside the servlet context (sendError of a filter, such as Dropwizard's allowed methods). */
    public static class ForServlets extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                Callback callback) {
            writeProblem(response, code, callback);
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                String contentType, List<Charset> charsets, int code, String message, Throwable cause) {
            writeProblem(response, code, callback);
            return true;
        }
    }

    /** The body from the status alone: Jetty's messages may quote the request (a path, a header). */
    static byte[] body(int status) {
        String title = HttpStatus.getMessage(status);
        var problem = Problem.of(status, slug(status), title, switch (status) {
            case 400 -> "the request is malformed (its path, headers or framing)";
            case 405 -> "this method is not allowed here";
            case 414, 431 -> "the request's URI or headers are too large";
            default -> title;
        });
        try {
            return JSON.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            return ("{\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
        }
    }

    private static String slug(int status) {
        return switch (status) {
            case 400 -> "bad-request";
            case 404 -> "not-found";
            case 405 -> "method-not-allowed";
            case 408 -> "request-timeout";
            case 413 -> "body-too-large";
            case 414 -> "uri-too-long";
            case 415 -> "unsupported-media-type";
            case 431 -> "headers-too-large";
            case 500 -> "internal-error";
            case 503 -> "service-unavailable";
            default -> "http-" + status;
        };
    }
}
