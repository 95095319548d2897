package io.profilestore.cli;

import io.dropwizard.core.cli.Command;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.auth.ApiKeys;
import io.profilestore.auth.Role;
import java.util.List;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code apikey --name <client> --role <role>...}: makes a new API key. Prints the key once (give it to the
 * client) and the entry to configure (the service keeps only the key's hash).
 */
public class ApiKeyCommand extends Command {

    public ApiKeyCommand() {
        super("apikey", "Makes a new API key and prints it with the hash to configure");
    }

    @Override
    public void configure(Subparser subparser) {
        subparser.addArgument("--name").required(true).help("who the key is for, e.g. processing-platform");
        subparser.addArgument("--role").required(true).nargs("+").help("platform, operator, editor and/or admin");
        subparser.addArgument("--machine").action(Arguments.storeTrue())
                .help("the key is a client system's (role platform alone): its look-ups are recorded just after "
                        + "the answer; without it, a person's, each look-up recorded before the answer");
    }

    @Override
    public void run(Bootstrap<?> bootstrap, Namespace namespace) {
        var roles = namespace.<String>getList("role").stream().map(Role::of).map(Role::roleName).distinct().toList();
        boolean machine = namespace.getBoolean("machine");
        if (machine && !roles.equals(List.of(Role.PLATFORM_NAME))) {
            throw new IllegalArgumentException("a machine's key holds the platform role alone: --machine --role platform");
        }
        var generated = ApiKeys.generate();
        System.out.println("key (give it to the client; it is not stored anywhere): " + generated[0]);
        System.out.println("configuration (auth.apiKeys, or the apiKeysFile):");
        System.out.printf("- name: %s%n  hash: %s%n  roles: %s%n  machine: %s%n", namespace.getString("name"),
                generated[1], roles, machine);
    }
}
