package io.profilestore.resources;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /asyncapi.json}: the AsyncAPI 3.0 description of the change stream (docs/change-stream.md), open to anyone
 * like {@link OpenApiResource}: it holds no data.
 */
@Path("/asyncapi.json")
public class AsyncApiResource {

    static final String DOCUMENT = "/asyncapi/asyncapi.json";

    private final byte[] document = OpenApiResource.load(DOCUMENT);

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public byte[] document() {
        return document.clone();
    }
}
