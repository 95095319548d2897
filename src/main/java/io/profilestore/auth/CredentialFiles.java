package io.profilestore.auth;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.support.WatchedFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bearer tokens' authenticator, whose files are read again when they change (every {@code auth.reloadEvery}): the
 * API keys file, so that a key removed from it is refused within seconds, without a restart; and a JWT key set file,
 * so that a key the provider rotated in or withdrew is taken or refused. A {@code jwksUrl} is fetched again by the
 * JWT library as keys come and go.
 */
public final class CredentialFiles {

    private CredentialFiles() {
    }

    /** The authenticator, its files watched on the given scheduler from now on. */
    public static BearerAuthenticator watched(AuthSettings settings, ScheduledExecutorService scheduler,
            MetricRegistry metrics) {
        var authenticator = new AtomicReference<BearerAuthenticator>();
        var watches = new ArrayList<WatchedFile>();
        // each watch is made before the file's first read: a change in between is read again, not missed
        if (!settings.apiKeysFile.isEmpty()) {
            watches.add(new WatchedFile(Path.of(settings.apiKeysFile), "api-keys",
                    content -> authenticator.get().replaceFileKeys(content), metrics));
        }
        if (settings.jwt() != null && !settings.jwt().jwksFile.isEmpty()) {
            watches.add(new WatchedFile(Path.of(settings.jwt().jwksFile), "jwks",
                    content -> authenticator.get().jwt().replaceKeySet(content), metrics));
        }
        authenticator.set(BearerAuthenticator.of(settings));
        WatchedFile.schedule(scheduler, settings.reloadEvery.toJavaDuration(), watches);
        return authenticator.get();
    }
}
