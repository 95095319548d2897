import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.stream.Stream;

/**
 * Makes the JRE's trust store (lib/security/cacerts) from the CA certificates of Debian's ca-certificates, as
 * ca-certificates-java would in its maintainer script. PKCS#12 with neither encryption nor MAC (certificates are
 * public; the JDK reads such a store without a password) and entries in the order of their file names: the same
 * certificates give the same bytes, so the image stays reproducible.
 *
 * Usage: java TrustStore.java CERTIFICATE_DIRECTORY OUTPUT
 */
public class TrustStore {
    public static void main(String[] args) throws Exception {
        System.setProperty("keystore.pkcs12.certProtectionAlgorithm", "NONE");
        System.setProperty("keystore.pkcs12.macAlgorithm", "NONE");
        var store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        var certificates = CertificateFactory.getInstance("X.509");
        try (Stream<Path> files = Files.walk(Path.of(args[0]))) {
            for (var file : files.filter(f -> f.toString().endsWith(".crt")).sorted().toList()) {
                try (var in = new FileInputStream(file.toFile())) {
                    var certificate = (X509Certificate) certificates.generateCertificate(in);
                    var alias = file.getFileName().toString().replaceFirst("\\.crt$", "").toLowerCase();
                    store.setCertificateEntry(alias, certificate);
                }
            }
        }
        if (store.size() == 0) {
            throw new IllegalStateException("no certificate under " + args[0]);
        }
        try (var out = new FileOutputStream(args[1])) {
            store.store(out, null);
        }
        System.out.println(store.size() + " certificates");
    }
}
