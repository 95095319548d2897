package io.profilestore.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A certificate authority of the tests' own and a server certificate it signed for {@code localhost} only (no
 * address, so that a client reaching the server by an address must fail its host name check), made with the JDK's
 * keytool: no library, and the files are what an operator's Secret would hold (a PEM CA, a PKCS12 key store).
 */
public final class TestCertificates {

    public static final String STORE_PASSWORD = "test-store-password";

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A new authority and server certificate in {@code dir}; a second, unrelated authority beside them. */
    public static TestCertificates create(Path dir) {
        var certificates = new TestCertificates(dir);
        certificates.makeAuthority("ca");
        certificates.makeAuthority("other-ca");
        certificates.makeServer();
        return certificates;
    }

    /** The PEM of the authority that signed the server's certificate. */
    public Path caFile() {
        return dir.resolve("ca.pem");
    }

    /** The PEM of an authority that signed nothing the servers present. */
    public Path otherCaFile() {
        return dir.resolve("other-ca.pem");
    }

    /** The server's key and certificate chain, PKCS12, password {@link #STORE_PASSWORD}. */
    public Path serverKeyStore() {
        return dir.resolve("server.p12");
    }

    /** A server-side context presenting the server's certificate. */
    public SSLContext serverContext() {
        try (InputStream in = Files.newInputStream(serverKeyStore())) {
            var store = KeyStore.getInstance("PKCS12");
            store.load(in, STORE_PASSWORD.toCharArray());
            var keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, STORE_PASSWORD.toCharArray());
            var context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot load " + serverKeyStore(), e);
        }
    }

    /**
     * The serial number of the certificate a TLS server presents to a new connection, whoever signed it: which
     * certificate is served, not whether it is trusted.
     */
    public static BigInteger presentedSerial(String host, int port) throws GeneralSecurityException, IOException {
        var context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String type) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String type) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        try (var socket = (SSLSocket) context.getSocketFactory().createSocket(host, port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private void makeAuthority(String name) {
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + name,
                "-ext", "bc:c", "-validity", "3", "-keystore", name + ".p12", "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", name + ".p12", "-storepass", STORE_PASSWORD,
                "-file", name + ".pem");
    }

    private void makeServer() {
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-validity", "3", "-keystore", "server.p12", "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        keytool("-certreq", "-alias", "server", "-keystore", "server.p12", "-storepass", STORE_PASSWORD,
                "-file", "server.csr");
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-storepass", STORE_PASSWORD,
                "-infile", "server.csr", "-outfile", "server.pem", "-ext", "SAN=dns:localhost", "-validity", "3");
        // the reply is installed over a chain to a certificate the store trusts
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "server.p12",
                "-storepass", STORE_PASSWORD);
        keytool("-importcert", "-noprompt", "-alias", "server", "-file", "server.pem", "-keystore", "server.p12",
                "-storepass", STORE_PASSWORD);
    }

    private void keytool(String... arguments) {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        try {
            Files.createDirectories(dir);
            var process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
