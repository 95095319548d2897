package io.profilestore.stack;

import ch.qos.logback.access.common.spi.IAccessEvent;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.spi.DeferredProcessingAware;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import io.dropwizard.logging.common.AbstractAppenderFactory;
import io.dropwizard.logging.common.AppenderFactory;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.dropwizard.logging.common.FileAppenderFactory;
import io.dropwizard.request.logging.LogbackAccessRequestLogFactory;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.demo.DemoLoader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Server;

/**
 * What {@code ./run-local} runs: checks the machine, starts (or joins) the stack, applies the schema, serves the
 * API and the indexer, prints where. Ctrl-C stops the service, then the stack unless another run still uses it.
 * {@code ./run-local stop} stops a stack that killed runs left behind; {@code ./run-local --demo [N]} also loads N
 * (3000) generated profiles; {@code ./run-local apikey NAME ROLE...} makes an API key for a run with authentication
 * on ({@link LocalKeys}).
 *
 * <p>The console shows what a person waits for (start-up, readiness, the URL) and warnings; the service's log and
 * its request log go to files under the stack folder, named in the banner.
 */
public final class RunLocal {

    static final String CONFIG = "profile-store.yml";

    private RunLocal() {
    }

    static final String USAGE = """
            usage: ./run-local [--demo [N]] | stop | apikey NAME ROLE... | --help
              ./run-local            start (or join) the stack, apply the schema, serve the API; Ctrl-C stops it all
              ./run-local --demo     the same, and load 3000 generated profiles (--demo N: N of them)
              ./run-local stop       stop a stack that killed runs left behind
              ./run-local apikey alice editor   make an API key, for PROFILE_STORE_AUTH_ENABLED=true ./run-local
            The stack's mode, folder and ports come from PROFILE_STORE_* variables
            (docs/operations/local-stack.md, "Settings").""";

    public static void main(String[] args) throws Exception {
        int demo;
        try {
            if (isHelp(args)) {
                System.out.println(USAGE);
                return;
            }
            if (args.length > 0 && args[0].equals("apikey")) {
                System.out.println(apikey(new LocalKeys(StackSettings.fromEnvironment().dir()), args, apiPort()));
                return;
            }
            demo = demoCount(args);
        } catch (IllegalArgumentException e) {
            // a typo must not start four servers: say so, and what would have been understood
            System.err.println(e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        var settings = StackSettings.fromEnvironment();
        if (args.length == 1 && args[0].equals("stop")) {
            boolean stopped = LocalStack.stopLeftovers(settings);
            System.out.println(stopped ? "stopped the local stack under " + settings.dir()
                    : "the local stack under " + settings.dir() + " is in use by another run; left running");
            return;
        }
        String demoKey;
        try {
            demoKey = authentication(System.getenv("PROFILE_STORE_AUTH_ENABLED"), new LocalKeys(settings.dir()),
                    settings.dir().resolve("profile-store"), System.getenv("PROFILE_STORE_API_KEYS_FILE"), demo > 0,
                    System::setProperty, System.out::println);
            Prerequisites.prepareForStack(settings, System.out::println);
            // after the machine is known to run the stack: a run refused for what is missing leaves no folder behind
            numberKeys(System.getenv("PROFILE_STORE_NUMBER_KEYS"), new LocalKeys(settings.dir()), System::setProperty);
        } catch (IllegalStateException missing) {
            System.err.println(missing.getMessage());
            System.exit(1);
            return;
        }
        // the hook is there before anything starts: a Ctrl-C during the stack's start waits for it, then stops it
        var app = new AtomicReference<LocalApplication>();
        var stack = new AtomicReference<Stack>();
        var stackStarted = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping profile-store and the stack it started ...");
            if (app.get() != null) {
                app.get().stopServer();
            }
            try {
                stackStarted.await(settings.startTimeout().toSeconds() + 60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (stack.get() != null) {
                stack.get().close();
            }
            System.out.println("stopped");
        }, "run-local-shutdown"));

        System.out.println("starting the backing services (" + settings.modeSetting() + " mode) ...");
        try {
            stack.set(Stack.start(settings));
        } finally {
            stackStarted.countDown();
        }
        System.out.println("backing services: " + stack.get().describe());
        stack.get().endpoints().configOverrides().forEach((path, value) -> System.setProperty("dw." + path, value));
        // one process does it all locally, with authentication on or off: API, relay and indexer
        System.setProperty("dw.indexer.inProcess", "true");
        bindLoopbackUnlessTold(System.getenv("PROFILE_STORE_BIND_HOST")).forEach(System::setProperty);

        var logs = settings.dir().resolve("profile-store");
        System.out.println("applying the schema and starting profile-store (its log: " + logs + ") ...");
        // made only now: a Dropwizard application takes over the logging as it is made
        app.set(new LocalApplication(logs));
        app.get().run("migrate", CONFIG);
        app.get().run("server", CONFIG);

        System.out.println("the operator console: http://localhost:" + app.get().port() + "/console/");
        if (demo > 0) {
            var base = URI.create("http://localhost:" + app.get().port());
            int created = DemoLoader.load(base, demo, System.nanoTime(), demoKey);
            System.out.print(demoHints(created, base, demoKey != null));
        }
    }

    /**
     * Off unless asked (every caller then has every role, on this machine only). Asked with {@code true}, the
     * service lets in the keys of {@code ./run-local apikey}, those of PROFILE_STORE_API_KEYS_FILE, and a key of the
     * run's own for the demo data, which it returns (null without one).
     */
    static String authentication(String enabled, LocalKeys keys, Path runDir, String keysFile, boolean demo,
            BiConsumer<String, String> property, Consumer<String> out) {
        if (enabled == null || enabled.isBlank()) {
            property.accept("dw.auth.enabled", "false");
            out.accept("authentication is off for this local run (PROFILE_STORE_AUTH_ENABLED=true turns it on)");
            return null;
        }
        if (!enabled.strip().equals("true")) {
            return null;
        }
        LocalKeys.RunKeys run;
        try {
            run = keys.forRun(runDir.resolve("api-keys-of-this-run.yml"), keysFile, demo);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or write the API keys of this run: " + e.getMessage(), e);
        }
        property.accept("dw.auth.apiKeysFile", run.file().toString());
        out.accept(run.given() == 0
                ? "authentication is on, and no API key is made yet: the API answers 401 to every call. Make one with"
                        + " ./run-local apikey NAME ROLE (./run-local apikey alice editor, say), then start again"
                : "authentication is on: " + run.given() + " API key(s) let in, from " + keys.file()
                        + (keysFile == null || keysFile.isBlank() ? "" : " and " + keysFile.strip())
                        + " (./run-local apikey NAME ROLE makes another; a run reads them as it starts)");
        return run.demoKey();
    }

    /**
     * The stack's own key for numbers in the index, unless PROFILE_STORE_NUMBER_KEYS gives one: with authentication
     * on the service needs one, and off it is better than the development key too.
     */
    static void numberKeys(String configured, LocalKeys keys, BiConsumer<String, String> property) {
        if (configured != null && !configured.isBlank()) {
            return;
        }
        try {
            property.accept("dw.search.numberKeys", keys.numberKeys());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or write the stack's number key: " + e.getMessage(), e);
        }
    }

    /** {@code apikey NAME ROLE...}: makes the key, and says how to use it. */
    static String apikey(LocalKeys keys, String[] args, int port) throws IOException {
        if (args.length < 3) {
            throw new IllegalArgumentException("./run-local apikey takes a name and one role or more: platform,"
                    + " operator, editor or admin (./run-local apikey alice editor, say)");
        }
        var roles = List.of(args).subList(2, args.length);
        String key = keys.add(args[1], roles);
        return "API key of " + args[1] + " (" + String.join(", ", roles) + "), shown once, kept nowhere: " + key
                + "\nits hash is in " + keys.file() + ", which a run with authentication on lets in as it starts:"
                + "\n  PROFILE_STORE_AUTH_ENABLED=true ./run-local"
                + "\n  curl -s localhost:" + port + "/v1/me -H 'Authorization: Bearer " + key + "'";
    }

    /** Where the API listens: PROFILE_STORE_PORT, as the bundled configuration reads it. */
    private static int apiPort() {
        String port = System.getenv("PROFILE_STORE_PORT");
        return port == null || port.isBlank() ? 18080 : Integer.parseInt(port.strip());
    }

    /** What to try once the demo data is in, with a key when authentication is on. */
    static String demoHints(int created, URI base, boolean authentication) {
        String key = authentication ? " -H \"Authorization: Bearer $KEY\"" : "";
        return String.format("%ndemo data: %d profiles created. Open %s/console/ and type Bdfyjd, kuznetsova anna,"
                + " or a phone with spaces%s. Or try%s:%n"
                + "  curl -s '%s/v1/search?surname=ivanov'%s | jq%n"
                + "  curl -s '%s/v1/search?surname=kuzn&firstName=%%D0%%B0'%s | jq   # Kuzn..., А...%n"
                + "  curl -s '%s/v1/search?surname=Bdfyjd'%s | jq    # Иванов, typed with the Latin layout on%n",
                created, base, authentication ? " (sign in with a key of ./run-local apikey)" : "",
                authentication ? ", with KEY a key of ./run-local apikey" : "", base, key, base, key, base, key);
    }

    /**
     * Both ports on this machine only, unless PROFILE_STORE_BIND_HOST says otherwise: a laptop's run answers nobody
     * else, and with authentication off the service refuses to listen anywhere else. The configuration's own
     * default (all interfaces) is a deployment's.
     */
    static Map<String, String> bindLoopbackUnlessTold(String bindHost) {
        if (bindHost != null && !bindHost.isBlank()) {
            return Map.of();
        }
        return Map.of("dw.server.applicationConnectors[0].bindHost", "127.0.0.1",
                "dw.server.adminConnectors[0].bindHost", "127.0.0.1");
    }

    static boolean isHelp(String[] args) {
        return args.length == 1 && List.of("--help", "-h", "help").contains(args[0]);
    }

    /**
     * {@code --demo} alone means 3000; {@code --demo 500} means 500; nothing means none. Anything else (but
     * {@code stop} alone) is refused.
     */
    static int demoCount(String[] args) {
        if (args.length == 0 || args.length == 1 && args[0].equals("stop")) {
            return 0;
        }
        if (args[0].equals("--demo") && args.length == 1) {
            return 3000;
        }
        if (args[0].equals("--demo") && args.length == 2 && args[1].matches("[1-9]\\d{0,6}")) {
            return Integer.parseInt(args[1]);
        }
        throw new IllegalArgumentException("./run-local does not understand: " + String.join(" ", args));
    }

    /**
     * The application with the local run's logging (files, warnings on the console), a banner once Jetty listens,
     * and a handle to stop it before the stack.
     */
    private static final class LocalApplication extends ProfileStoreApplication {
        private final Path logs;
        private final AtomicReference<Server> server = new AtomicReference<>();
        private volatile int port;

        LocalApplication(Path logs) {
            this.logs = logs;
        }

        int port() {
            return port;
        }

        @Override
        public void initialize(Bootstrap<ProfileStoreConfiguration> bootstrap) {
            super.initialize(bootstrap);
            // the logging must be set on the configuration before Dropwizard applies it, right after parsing
            bootstrap.setConfigurationFactoryFactory((klass, validator, mapper, prefix) ->
                    new YamlConfigurationFactory<>(klass, validator, mapper, prefix) {
                        @Override
                        public ProfileStoreConfiguration build(ConfigurationSourceProvider provider, String path)
                                throws IOException, ConfigurationException {
                            return logToFiles(super.build(provider, path));
                        }
                    });
        }

        /** The service's log to a file and warnings to the console; the request log to a file of its own. */
        private ProfileStoreConfiguration logToFiles(ProfileStoreConfiguration config) {
            FileAppenderFactory<ILoggingEvent> serviceLog = file("service.log");
            ConsoleAppenderFactory<ILoggingEvent> warnings = new ConsoleAppenderFactory<>();
            warnings.setThreshold("WARN");
            List<AppenderFactory<ILoggingEvent>> appenders = List.of(serviceLog, warnings);
            ((DefaultLoggingFactory) config.getLoggingFactory()).setAppenders(appenders);

            var requestLog = (LogbackAccessRequestLogFactory) ((DefaultServerFactory) config.getServerFactory())
                    .getRequestLogFactory();
            var configured = requestLog.getAppenders();
            FileAppenderFactory<IAccessEvent> requests = file("requests.log");
            if (!configured.isEmpty() && configured.get(0) instanceof AbstractAppenderFactory<?> first) {
                requests.setLogFormat(first.getLogFormat()); // the service's format: no query strings
            }
            List<AppenderFactory<IAccessEvent>> requestAppenders = List.of(requests);
            requestLog.setAppenders(requestAppenders);
            return config;
        }

        private <E extends DeferredProcessingAware> FileAppenderFactory<E> file(String name) {
            FileAppenderFactory<E> file = new FileAppenderFactory<>();
            file.setCurrentLogFilename(logs.resolve(name).toString());
            file.setArchivedLogFilenamePattern(logs.resolve(name.replace(".log", "-%d.log.gz")).toString());
            file.setArchivedFileCount(3);
            return file;
        }

        @Override
        public void run(ProfileStoreConfiguration config, Environment environment) {
            super.run(config, environment);
            environment.lifecycle().addServerLifecycleListener(new ServerLifecycleListener() {
                @Override
                public void serverStarted(Server started) {
                    // our shutdown hook stops Jetty, then the stack; Jetty's own hook would stop it at the same
                    // time, and our hook would go on to stop the stack under a service still running
                    started.setStopAtShutdown(false);
                    server.set(started);
                    port = getLocalPort(started);
                    System.out.printf("%nprofile-store is up: http://localhost:%d/  (admin: http://localhost:%d/"
                            + "healthcheck and /metrics)%nlogs: %s (service), %s (requests)%n"
                            + "Ctrl-C stops it and the stack.%n",
                            getLocalPort(started), getAdminPort(started), logs.resolve("service.log"),
                            logs.resolve("requests.log"));
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
