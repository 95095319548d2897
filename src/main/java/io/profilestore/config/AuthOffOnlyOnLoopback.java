package io.profilestore.config;

import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.core.server.SimpleServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.profilestore.auth.Loopback;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;

/**
 * With {@code auth.enabled: false} every caller has every role and the admin port has no filter, so a service
 * listening beyond this machine would serve profiles and admin tasks to its whole network. Then every connector,
 * the API's and the admin port's, must bind localhost, 127.0.0.0/8 or ::1; otherwise the configuration is refused
 * (by {@code check} too), one message per connector, naming it and the setting to change.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = AuthOffOnlyOnLoopback.Check.class)
public @interface AuthOffOnlyOnLoopback {

    String message() default "with auth.enabled false, every connector must bind 127.0.0.1";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Check implements ConstraintValidator<AuthOffOnlyOnLoopback, ProfileStoreConfiguration> {

        @Override
        public boolean isValid(ProfileStoreConfiguration config, ConstraintValidatorContext context) {
            if (config == null || config.auth == null || config.auth.enabled) {
                return true;
            }
            var exposed = exposed(config.getServerFactory());
            if (exposed.isEmpty()) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            // no braces or dollars in the text: it is a message template
            exposed.forEach(message -> context.buildConstraintViolationWithTemplate(message).addConstraintViolation());
            return false;
        }

        /** One message for each connector that listens beyond this machine. */
        static List<String> exposed(ServerFactory server) {
            var messages = new ArrayList<String>();
            if (server instanceof DefaultServerFactory standard) {
                check("server.applicationConnectors", standard.getApplicationConnectors(), messages);
                check("server.adminConnectors", standard.getAdminConnectors(), messages);
            } else if (server instanceof SimpleServerFactory simple) {
                check("server.connector", List.of(simple.getConnector()), messages);
            } else if (server != null) {
                messages.add("with authentication off (auth.enabled: false), server of type "
                        + server.getClass().getSimpleName() + " cannot be checked to bind 127.0.0.1: use the default "
                        + "server, or turn authentication on");
            }
            return messages;
        }

        private static void check(String setting, List<ConnectorFactory> connectors, List<String> messages) {
            for (int i = 0; i < connectors.size(); i++) {
                String bindHost = connectors.get(i) instanceof HttpConnectorFactory http ? http.getBindHost() : null;
                if (!Loopback.isLoopback(bindHost)) {
                    String name = connectors.size() == 1 && setting.equals("server.connector") ? setting
                            : setting + "[" + i + "]";
                    messages.add(name + " listens on " + (bindHost == null ? "all interfaces (no bindHost)"
                            : bindHost.isEmpty() ? "an empty bindHost" : bindHost)
                            + " with authentication off (auth.enabled: false), which gives every caller on the network"
                            + " every role: set its bindHost to 127.0.0.1 (PROFILE_STORE_BIND_HOST=127.0.0.1 in"
                            + " profile-store.yml), or turn authentication on (PROFILE_STORE_AUTH_ENABLED=true)");
                }
            }
        }
    }
}
