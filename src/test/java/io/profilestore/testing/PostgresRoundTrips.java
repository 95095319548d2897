package io.profilestore.testing;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain TCP proxy in front of PostgreSQL that counts the round trips its clients make: every message a client
 * sends is read (a type byte and a length, PostgreSQL's frontend protocol), and a Sync (the end of an extended-protocol
 * exchange, after which the driver waits for the answer) or a simple Query is one round trip. Not the driver's
 * {@code BEGIN}: a simple Query it sends just ahead of the first statement of a transaction, whose answer it reads
 * with that statement's; nor the pool's empty query that checks a connection idle a while. The start of a connection (its startup message, and the SSL request before it, which the
 * proxy forwards like any other) is not counted. What the server sends back passes through untouched.
 */
public final class PostgresRoundTrips implements AutoCloseable {

    private static final int SSL_REQUEST_CODE = 80877103;
    private static final int GSS_REQUEST_CODE = 80877104;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final AtomicLong roundTrips = new AtomicLong();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    private PostgresRoundTrips(InetSocketAddress target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(FreePorts.next(), 50);
        daemon("pg-round-trips-accept", this::acceptAll);
    }

    public static PostgresRoundTrips start(InetSocketAddress target) throws IOException {
        return new PostgresRoundTrips(target);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Round trips counted since the proxy started. */
    public long roundTrips() {
        return roundTrips.get();
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            try {
                var backend = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                backend.setTcpNoDelay(true);
                open.add(client);
                open.add(backend);
                daemon("pg-round-trips-up", () -> countAndForward(client, backend));
                daemon("pg-round-trips-down", () -> copy(backend, client));
            } catch (IOException e) {
                closeQuietly(client); // PostgreSQL refused this one; the client sees its connection fail
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** Client to server: the startup exchange as it is, then message by message, counting. */
    private void countAndForward(Socket client, Socket backend) {
        try (client; backend) {
            var in = new DataInputStream(client.getInputStream());
            var out = backend.getOutputStream();
            boolean started = false;
            while (!started) {
                // untyped: a length (itself included) and a code; an SSL or GSS request is answered by one byte and
                // followed by another untyped message
                int length = in.readInt();
                byte[] rest = in.readNBytes(length - 4);
                write(out, length, rest);
                int code = ByteBuffer.wrap(rest, 0, 4).getInt();
                started = code != SSL_REQUEST_CODE && code != GSS_REQUEST_CODE;
            }
            while (true) {
                int type = in.read();
                if (type < 0) {
                    return;
                }
                int length = in.readInt();
                byte[] body = in.readNBytes(length - 4);
                if (type == 'S' || type == 'Q' && !isBegin(body) && !isEmpty(body)) {
                    roundTrips.incrementAndGet();
                }
                out.write(type);
                write(out, length, body);
            }
        } catch (EOFException e) {
            // the client went away
        } catch (IOException e) {
            // a side closed
        }
    }

    /** The driver's BEGIN, a simple Query sent just ahead of the statements it opens the transaction for. */
    private static boolean isBegin(byte[] query) {
        return new String(query, StandardCharsets.UTF_8).strip().replace("\0", "").equals("BEGIN");
    }

    /**
     * The pool's check of a connection that was idle a while, and its keep-alive: an empty query, the pool's
     * round trip, not the work's.
     */
    private static boolean isEmpty(byte[] query) {
        return new String(query, StandardCharsets.UTF_8).replace("\0", "").isBlank();
    }

    private static void write(OutputStream out, int length, byte[] body) throws IOException {
        out.write(new byte[] {(byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length});
        out.write(body);
        out.flush();
    }

    private static void copy(Socket from, Socket to) {
        try (from; to) {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
        } catch (IOException e) {
            // a side closed
        }
    }

    private static void daemon(String name, Runnable work) {
        var thread = new Thread(work, name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (var socket : open) {
            socket.close();
        }
    }
}
