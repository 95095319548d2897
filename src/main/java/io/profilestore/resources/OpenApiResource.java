package io.profilestore.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /openapi.json}: the OpenAPI 3.1 description of this API, open to anyone (it holds no data; clients
 * and the console are generated from it). No role annotation on purpose: with one, Dropwizard would ask for a token.
 */
@Path("/openapi.json")
public class OpenApiResource {

    static final String DOCUMENT = "/openapi/openapi.json";

    private final byte[] document;

    public OpenApiResource() {
        this.document = load(DOCUMENT);
    }

    /** A document of the service's contracts, from the classpath. */
    static byte[] load(String path) {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public byte[] document() {
        return document.clone();
    }
}
