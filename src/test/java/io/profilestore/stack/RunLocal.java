package io.profilestore.stack;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Server;

/**
 * What {@code ./run-local} runs: starts (or joins) the stack, applies the schema, serves the API, prints where.
 * Ctrl-C stops the service, then the stack unless another run still uses it. {@code ./run-local stop} stops a
 * stack that killed runs left behind.
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

        var app = new LocalApplication();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping profile-store and the stack it started ...");
            app.stopServer();
            stack.close();
            System.out.println("stopped");
        }, "run-local-shutdown"));

        app.run("migrate", CONFIG);
        app.run("server", CONFIG);
    }

    /** The application, plus a banner once Jetty listens and a handle to stop it before the stack. */
    private static final class LocalApplication extends ProfileStoreApplication {
        private final AtomicReference<Server> server = new AtomicReference<>();

        @Override
        public void run(ProfileStoreConfiguration config, Environment environment) {
            super.run(config, environment);
            environment.lifecycle().addServerLifecycleListener(new ServerLifecycleListener() {
                @Override
                public void serverStarted(Server started) {
                    server.set(started);
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
