package io.profilestore.changestream;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The {@code changeStream} block: where other systems read the service's changes (docs/change-stream.md). */
public class ChangeStreamSettings {

    /** The RabbitMQ stream queue the events go to, created by {@code migrate} and the publisher if it is not there. */
    @NotEmpty
    public String queue = "profile-store.changes";

    /**
     * How long the stream keeps an event ({@code x-max-age}, RabbitMQ's units: Y, M, D, h, m, s): a consumer away
     * longer than this misses what is older. Used when the stream is created; a policy changes it later.
     */
    @NotNull
    @Pattern(regexp = "[1-9][0-9]*(Y|M|D|h|m|s)")
    public String maxAge = "7D";

    /** How many bytes the stream keeps at most ({@code x-max-length-bytes}), when it is created: 20 GB by default. */
    @Min(100_000_000L)
    public long maxBytes = 20_000_000_000L;

    /** The CloudEvents {@code source} of every event: which deployment of the service made it. */
    @NotEmpty
    public String source = "/profile-store";

    /**
     * Whether a profile's event carries the document's values (off: only the names of the members that changed). Off,
     * a consumer reads the profile through the API, which authorizes and audits the read; on, every consumer of the
     * stream holds every person's data, unaudited, for as long as the stream keeps it.
     */
    public boolean includeValues = false;

    /** Events published, and marks written, per confirm at most. */
    @Min(1)
    @Max(5_000)
    public int batchSize = 500;

    /** How long a batch waits for more changes once it has one. */
    @NotNull
    public Duration linger = Duration.milliseconds(20);
}
