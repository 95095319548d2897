package io.profilestore.stack;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.demo.DemoLoader;
import java.net.URI;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Server;

/**
 * What {@code ./run-local} runs: starts (or joins) the stack, applies the schema, serves the API, prints where.
 * Ctrl-C stops the service, then the stack unless another run still uses it. {@code ./run-local stop} stops a
 * stack that killed runs left behind; {@code ./run-local --demo [N]} also loads N (3000) generated profiles.
 */
public final class RunLocal {

    static final String CONFIG = "profile-store.yml";

    private RunLocal() {
    }

    public static void main(String[] args) throws Exception {
        var settings = StackSettings.fromEnvironment();
        if (args.length > 0 && args[0].equals("stop")) {
            boolean stopped = LocalStack.stopLeftovers(settings);
            System.out.println(stopped ? "stopped the local stack under " + settings.dir()
                    : "the local stack under " + settings.dir() + " is in use by another run; left running");
            return;
        }
        System.out.println("starting the backing services (" + settings.modeSetting() + " mode) ...");
        var stack = Stack.start(settings);
        System.out.println("backing services: " + stack.describe());
        stack.endpoints().configOverrides().forEach((path, value) -> System.setProperty("dw." + path, value));
        // one process does it all locally: API, relay and indexer
        System.setProperty("dw.indexer.inProcess", "true");
        // on a developer's machine the API answers without tokens (every caller has every role), unless asked
        if (System.getenv("PROFILE_STORE_AUTH_ENABLED") == null) {
            System.setProperty("dw.auth.enabled", "false");
            System.out.println("authentication is off for this local run (PROFILE_STORE_AUTH_ENABLED=true turns it on)");
        }

        var app = new LocalApplication();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping profile-store and the stack it started ...");
            app.stopServer();
            stack.close();
            System.out.println("stopped");
        }, "run-local-shutdown"));

        app.run("migrate", CONFIG);
        app.run("server", CONFIG);

        int demo = demoCount(args);
        if (demo > 0) {
            var base = URI.create("http://localhost:" + app.port());
            int created = DemoLoader.load(base, demo, System.nanoTime());
            System.out.printf("%ndemo data: %d profiles created. Try:%n"
                    + "  curl -s '%s/v1/search?surname=ivanov' | jq%n"
                    + "  curl -s '%s/v1/search?surname=kuzn&firstName=%%D0%%B0' | jq   # Kuzn..., А...%n"
                    + "  curl -s '%s/v1/search?surname=Bdfyjd' | jq    # Иванов, typed with the Latin layout on%n",
                    created, base, base, base);
        }
    }

    /** {@code --demo} alone means 3000; {@code --demo 500} means 500. */
    static int demoCount(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--demo")) {
                return i + 1 < args.length && args[i + 1].matches("\\d+") ? Integer.parseInt(args[i + 1]) : 3000;
            }
        }
        return 0;
    }

    /** The application, plus a banner once Jetty listens and a handle to stop it before the stack. */
    private static final class LocalApplication extends ProfileStoreApplication {
        private final AtomicReference<Server> server = new AtomicReference<>();
        private volatile int port;

        int port() {
            return port;
        }

        @Override
        public void run(ProfileStoreConfiguration config, Environment environment) {
            super.run(config, environment);
            environment.lifecycle().addServerLifecycleListener(new ServerLifecycleListener() {
                @Override
                public void serverStarted(Server started) {
                    server.set(started);
                    port = getLocalPort(started);
                    System.out.printf("%nprofile-store is up: http://localhost:%d/  (admin: http://localhost:%d/"
                            + "healthcheck and /metrics)%nCtrl-C stops it and the stack.%n",
                            getLocalPort(started), getAdminPort(started));
                }
            });
        }

        void stopServer() {
            var running = server.get();
            if (running != null) {
                try {
                    running.stop();
                } catch (Exception e) {
                    System.err.println("could not stop Jetty cleanly: " + e.getMessage());
                }
            }
        }
    }
}
