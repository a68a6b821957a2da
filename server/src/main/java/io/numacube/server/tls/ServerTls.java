package io.numacube.server.tls;

import io.numacube.numa.base.NumacubeException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The server's side of TLS: its certificate chain (PEM, leaf first, as PostgreSQL's {@code ssl_cert_file}) and its
 * private key (unencrypted PKCS#8 PEM, {@code BEGIN PRIVATE KEY}; RSA, EC or EdDSA), checked to belong together, the
 * key file readable by its owner only (as PostgreSQL refuses a key with group or world access). Offers TLS 1.2 and
 * 1.3 only. A file that is missing, unreadable or not of that shape is an error naming the file and what to do.
 * Immutable; thread-safe.
 *
 * @param context the SSL context both front ends wrap their sockets with
 * @param leaf    the server's own certificate
 */
public record ServerTls(SSLContext context, X509Certificate leaf) {

    /** The protocols offered, newest first. */
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private static final Set<PosixFilePermission> OTHERS = Set.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    /** Reads and checks {@code certFile} and {@code keyFile}. */
    public static ServerTls load(Path certFile, Path keyFile) {
        List<X509Certificate> chain = certificates(certFile);
        checkPrivate(keyFile);
        PrivateKey key = PemPrivateKey.read(keyFile, read(keyFile, "key"));
        PemPrivateKey.checkPair(keyFile, key, certFile, chain.get(0));
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] none = new char[0];
            store.setKeyEntry("server", key, none, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, none);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, new SecureRandom());
            return new ServerTls(context, chain.get(0));
        } catch (GeneralSecurityException | IOException e) {
            throw invalid("cannot use the certificate and key: cert=" + certFile + " key=" + keyFile + " error="
                    + e.getMessage());
        }
    }

    /** The parameters a server socket or engine is set up with: {@link #PROTOCOLS}, the JDK's default suites. */
    public SSLParameters parameters() {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(PROTOCOLS.toArray(new String[0]));
        p.setNeedClientAuth(false);
        return p;
    }

    /** The certificate's subject and expiry, for the start-up log. */
    public String describe() {
        return "subject=" + leaf.getSubjectX500Principal().getName() + " expires="
                + leaf.getNotAfter().toInstant();
    }

    private static List<X509Certificate> certificates(Path file) {
        byte[] bytes = read(file, "certificate");
        try {
            List<X509Certificate> chain =
                    CertificateFactory.getInstance("X.509")
                            .generateCertificates(new ByteArrayInputStream(bytes))
                            .stream()
                            .map(c -> (X509Certificate) c)
                            .toList();
            if (chain.isEmpty()) {
                throw invalid("the certificate file holds no certificate: cert=" + file
                        + " — give a PEM file starting with -----BEGIN CERTIFICATE-----");
            }
            return chain;
        } catch (CertificateException e) {
            throw invalid("the certificate file is not a PEM X.509 certificate chain: cert=" + file + " error="
                    + e.getMessage() + " — give a PEM file starting with -----BEGIN CERTIFICATE-----, the server's"
                    + " certificate first");
        }
    }

    private static void checkPrivate(Path keyFile) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(keyFile);
            if (perms.stream().anyMatch(OTHERS::contains)) {
                throw invalid("the private key file has group or world access: key=" + keyFile + " permissions="
                        + java.nio.file.attribute.PosixFilePermissions.toString(perms)
                        + " — make it readable by its owner only (chmod 600), as PostgreSQL requires");
            }
        } catch (UnsupportedOperationException | IOException e) {
            // a file system without POSIX permissions: nothing to check; a read error is reported by the read
        }
    }

    static byte[] read(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw invalid("the " + what + " file does not exist: file=" + file);
        } catch (IOException e) {
            throw invalid("cannot read the " + what + " file: file=" + file + " error=" + e.getMessage());
        }
    }

    static NumacubeException invalid(String message) {
        return new NumacubeException(NumacubeException.Kind.INVALID_INPUT, message);
    }
}
