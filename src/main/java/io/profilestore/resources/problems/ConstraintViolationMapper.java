package io.profilestore.resources.problems;

import io.dropwizard.jersey.validation.JerseyViolationException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.util.stream.Collectors;
import org.glassfish.jersey.server.model.Invocable;

/**
 * A request that breaks a constraint of its resource method (a {@code @NotNull} body) or of its {@code api} record:
 * 400 {@code bad-request}, the answer the resources gave when they checked by hand. The detail names each field
 * and the rule it breaks, never the value, which may be personal data.
 * <p>
 * It maps {@link JerseyViolationException} itself, the type Dropwizard's own JerseyViolationExceptionMapper maps;
 * the configuration turns Dropwizard's mappers off ({@code server.registerDefaultExceptionMappers: false}), and
 * RequestValidationTest, which leaves them on, shows this one answering all the same.
 */
public class ConstraintViolationMapper implements ExceptionMapper<JerseyViolationException> {

    @Override
    public Response toResponse(JerseyViolationException exception) {
        String detail = exception.getConstraintViolations().stream()
                .map(violation -> field(violation, exception.getInvocable()) + " " + violation.getMessage())
                .sorted()
                .collect(Collectors.joining("; "));
        return Problems.response(Problems.badRequest(detail));
    }

    /** Where the violation is, as the caller wrote it: {@code updates[0].pid}, a query parameter, or the body. */
    private static String field(ConstraintViolation<?> violation, Invocable invocable) {
        var field = new StringBuilder();
        for (Path.Node node : violation.getPropertyPath()) {
            switch (node.getKind()) {
                case PARAMETER -> field.append(parameterName(node.as(Path.ParameterNode.class), invocable));
                case PROPERTY -> field.append(index(node)).append(field.isEmpty() ? "" : ".").append(node.getName());
                case CONTAINER_ELEMENT -> field.append(index(node));
                default -> {
                    // the resource method: the caller knows which one it called
                }
            }
        }
        return field.isEmpty() ? "the request body" : "'" + field + "'";
    }

    /** A query or path parameter as named in the URL; the body has no name. */
    private static String parameterName(Path.ParameterNode node, Invocable invocable) {
        String name = invocable.getParameters().get(node.getParameterIndex()).getSourceName();
        return name == null ? "" : name;
    }

    private static String index(Path.Node node) {
        return node.isInIterable() ? "[" + node.getIndex() + "]" : "";
    }
}
