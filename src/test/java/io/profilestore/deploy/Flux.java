package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;

/** flux/ as its tests read it: the folder, an environment's instances as kustomize renders them, a document's name. */
final class Flux {

    static final Path FOLDER = Charts.PROJECT.resolve("flux");

    private Flux() {
    }

    /** flux/infrastructure/instances/{env} rendered: the backing services' resources of staging or production. */
    static List<JsonNode> instances(String env) {
        return Charts.parse(Tools.kustomize(FOLDER.resolve("infrastructure/instances/" + env)));
    }

    static String name(JsonNode doc) {
        return doc.path("metadata").path("name").asText();
    }
}
