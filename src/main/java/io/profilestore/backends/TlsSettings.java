package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.StrippedText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS to one backing service: whether to use it, which authority to trust, and whether the server's name must
 * match its certificate. The service never trusts a certificate it cannot verify: there is no "trust all" setting.
 */
public class TlsSettings {

    public boolean enabled;

    /**
     * The CA certificate(s) that signed the server's certificate, PEM (the operator's {@code ca.crt}, say); empty:
     * the JVM's own trust store (public authorities).
     */
    @JsonDeserialize(using = StrippedText.class)
    public String caFile = "";

    /**
     * Whether the server's name must be in its certificate. Only for servers reached by addresses no certificate
     * can name ahead of time (Cassandra's nodes by pod IP): the CA alone is then checked.
     */
    public boolean verifyHostname = true;

    /** A CA file with TLS off is a setting that does nothing: most likely TLS was meant to be on. */
    @ValidationMethod(message = "caFile is set but enabled is false")
    @JsonIgnore
    public boolean isCaFileUsed() {
        return enabled || caFile.isEmpty();
    }

    public boolean hasCaFile() {
        return !caFile.isEmpty();
    }

    /**
     * A context that trusts the CA file's certificates only, or the JVM's trust store without one. Read at start:
     * a missing or unreadable file stops the service with the file's name, not at the first request.
     */
    public SSLContext sslContext() {
        try {
            var context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS with " + describeTrust() + ": " + e.getMessage(), e);
        }
    }

    private TrustManager[] trustManagers() throws GeneralSecurityException {
        var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(hasCaFile() ? caKeyStore() : null);
        return factory.getTrustManagers();
    }

    private KeyStore caKeyStore() throws GeneralSecurityException {
        var store = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream pem = Files.newInputStream(Path.of(caFile))) {
            var certificates = CertificateFactory.getInstance("X.509").generateCertificates(pem);
            if (certificates.isEmpty()) {
                throw new IllegalStateException("the CA file " + caFile + " holds no certificate");
            }
            int i = 0;
            for (var certificate : certificates) {
                store.setCertificateEntry("ca-" + i++, certificate);
            }
            return store;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the CA file " + caFile + ": " + e.getMessage(), e);
        }
    }

    private String describeTrust() {
        return hasCaFile() ? "the CA file " + caFile : "the JVM's trust store";
    }
}
