package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.UUID;

/** A page of a profile's versions, newest first; {@code next} (sealed) asks for the page after it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProfileVersions(UUID pid, List<ProfileVersion> items, String next) {

    public ProfileVersions {
        items = List.copyOf(items);
    }
}
