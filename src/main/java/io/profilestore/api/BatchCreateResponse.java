package io.profilestore.api;

import java.util.List;
import java.util.UUID;

/** The profiles a batch created, in the order of the request. */
public record BatchCreateResponse(List<Created> created) {

    public record Created(UUID pid, UUID uid, long version) {
    }
}
