package io.profilestore.stack;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A second process that holds one of apt's locks the way a running apt-get does (an fcntl lock), prints
 * {@code LOCKED}, and lets go when its standard input ends.
 */
public final class AptLockHolder {

    private AptLockHolder() {
    }

    public static void main(String[] args) throws IOException {
        try (var channel = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE);
                var lock = channel.lock()) {
            System.out.println("LOCKED");
            System.out.flush();
            while (System.in.read() != -1) {
                // hold the lock until the parent closes our input
            }
        }
    }
}
