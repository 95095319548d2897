package io.profilestore.cli;

import io.dropwizard.core.cli.Command;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.auth.ApiKeys;
import io.profilestore.auth.Role;
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
    }

    @Override
    public void run(Bootstrap<?> bootstrap, Namespace namespace) {
        var roles = namespace.<String>getList("role").stream().map(Role::of).map(Role::roleName).toList();
        var generated = ApiKeys.generate();
        System.out.println("key (give it to the client; it is not stored anywhere): " + generated[0]);
        System.out.println("configuration (auth.apiKeys, or the apiKeysFile):");
        System.out.printf("- name: %s%n  hash: %s%n  roles: %s%n", namespace.getString("name"), generated[1], roles);
    }
}
