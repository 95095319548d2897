package io.profilestore.config;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jetty.HttpsConnectorFactory;
import io.dropwizard.jetty.SslReload;
import io.profilestore.support.WatchedFile;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The https connectors' key store, served anew when its file changes, without a restart: cert-manager renews the API's
 * certificate before it expires and Kubernetes replaces the mounted file, which nothing else would make the pods read
 * (a certificate that expires takes the API down). A new store is opened with its password first; one that does not
 * open is refused, and the certificate served stays. Connections made before keep theirs.
 */
public final class KeyStoreWatch {

    private KeyStoreWatch() {
    }

    /** Watches the key store of each https connector, API's and admin's, once the server has started. */
    public static void install(Environment environment, ProfileStoreConfiguration config) {
        if (!(config.getServerFactory() instanceof DefaultServerFactory server) || server.getApplicationConnectors()
                .stream().noneMatch(HttpsConnectorFactory.class::isInstance)
                && server.getAdminConnectors().stream().noneMatch(HttpsConnectorFactory.class::isInstance)) {
            return;
        }
        var scheduler = environment.lifecycle().scheduledExecutorService("key-store-watch", true).threads(1).build();
        var every = config.auth.reloadEvery.toJavaDuration();
        environment.lifecycle().addServerLifecycleListener(started ->
                WatchedFile.schedule(scheduler, every, watches(started, environment.metrics())));
    }

    /**
     * A watch of each https connector's key store file. Its first check serves the file as it is then: Jetty read it
     * at start, at a moment the watch cannot know, and a renewal just before must not wait for the next one.
     */
    static List<WatchedFile> watches(Server server, MetricRegistry metrics) {
        var watches = new ArrayList<WatchedFile>();
        for (var factory : tlsFactories(server)) {
            var resource = factory.getKeyStoreResource();
            Path file = resource == null ? null : resource.getPath();
            if (file == null) {
                continue; // no key store, or not a file: nothing to watch
            }
            var served = new Served(factory);
            watches.add(WatchedFile.appliedAtFirstCheck(file, "tls-key-store", served::replace, metrics));
        }
        return watches;
    }

    /**
     * The TLS context of each https connector: Dropwizard's connectors wrap theirs in a metered connection factory and
     * name it in an {@link SslReload} bean of the server; a bare Jetty connector holds it as is.
     */
    private static List<SslContextFactory> tlsFactories(Server server) {
        var found = Collections.newSetFromMap(new IdentityHashMap<SslContextFactory, Boolean>());
        server.getBeans(SslReload.class).forEach(reload -> found.add(reload.getFactory()));
        for (var connector : server.getConnectors()) {
            var tls = connector.getConnectionFactory(SslConnectionFactory.class);
            if (tls != null) {
                found.add(tls.getSslContextFactory());
            }
        }
        return List.copyOf(found);
    }

    /** The key store one connector serves, replaced whole or not at all. */
    static final class Served {
        private final SslContextFactory factory;
        private KeyStore last;

        Served(SslContextFactory factory) {
            this.factory = factory;
        }

        /**
         * Opens the new store and finds its private key with the connector's passwords, then hands Jetty that very
         * store (not the file again, which may have changed since). Jetty drops the store it serves before it takes
         * the new one: if taking it fails all the same, the last one served is given back, so that TLS never stays
         * down.
         */
        void replace(byte[] content) throws Exception {
            var store = open(content);
            try {
                factory.reload(f -> f.setKeyStore(store));
            } catch (Exception failed) {
                var previous = last;
                factory.reload(f -> f.setKeyStore(previous));
                throw failed;
            }
            last = store;
        }

        private KeyStore open(byte[] content) throws Exception {
            var store = KeyStore.getInstance(factory.getKeyStoreType());
            char[] password = chars(factory.getKeyStorePassword());
            store.load(new ByteArrayInputStream(content), password);
            String keyPassword = factory.getKeyManagerPassword();
            char[] forKey = keyPassword == null ? password : chars(keyPassword);
            for (var alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias) && store.getKey(alias, forKey) != null) {
                    return store;
                }
            }
            throw new IllegalArgumentException("the key store holds no private key the connector's password opens");
        }

        private static char[] chars(String text) {
            return text == null ? null : text.toCharArray();
        }
    }
}
