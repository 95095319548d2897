package io.profilestore.stack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Whether something listens on a port: how a service's readiness and its end are told apart. */
final class Ports {

    private Ports() {
    }

    static boolean open(String host, int port) {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
