package io.profilestore.change;

import java.util.List;

/** Some of the entities a request needs are locked by another request; nothing was locked. */
public class EntitiesLockedException extends RuntimeException {

    private final List<String> entities;

    public EntitiesLockedException(List<String> entities) {
        super("locked by another request: " + entities);
        this.entities = List.copyOf(entities);
    }

    public List<String> entities() {
        return entities;
    }
}
