package io.profilestore.stack;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Locale;

/**
 * A second process for the stack's own tests: {@code StackCli <service>...} starts (or joins) those services of
 * the stack the environment describes, prints {@code READY <service>=<origin>:<pids> ...}, holds the stack until
 * its standard input ends, then leaves it and prints {@code LEFT stopped} or {@code LEFT running}.
 */
public final class StackCli {

    private StackCli() {
    }

    public static void main(String[] args) throws IOException {
        var wanted = EnumSet.noneOf(LocalStack.Service.class);
        for (String arg : args) {
            wanted.add(LocalStack.Service.valueOf(arg.toUpperCase(Locale.ROOT)));
        }
        var stack = LocalStack.start(StackSettings.fromEnvironment(), wanted);
        var line = new StringBuilder("READY");
        stack.origins().forEach((service, origin) ->
                line.append(' ').append(service).append('=').append(origin).append(':').append(stack.pids(service)));
        System.out.println(line);
        System.out.flush();
        while (System.in.read() != -1) {
            // hold the stack until the parent closes our input
        }
        System.out.println(stack.leave() ? "LEFT stopped" : "LEFT running");
    }
}
