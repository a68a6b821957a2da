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
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's side of TLS: its certificate chain (PEM, leaf first, as PostgreSQL's {@code ssl_cert_file}) and its
 * private key (unencrypted PKCS#8 PEM, {@code BEGIN PRIVATE KEY}; RSA, EC or EdDSA), checked to belong together, the
 * key file readable by its owner only (as PostgreSQL refuses a key with group or world access). Offers TLS 1.2 and
 * 1.3 only. A file that is missing, unreadable or not of that shape is an error naming the file and what to do.
 *
 * <p>The two files can be replaced while the server runs (a certificate renewed): {@link #reloadIfChanged} reads them
 * again when either file's modification time or size changed since the last read, and, when the new pair passes the
 * same checks, every handshake after it presents the new certificate (one {@link SSLContext} for the server's life,
 * its key manager {@link SwappableKeyManager swapped}); a new pair that fails them leaves the old one in use. Connections
 * already encrypted keep their session.
 *
 * <p>With client CAs ({@link #load(Path, Path, Path)}), the server asks each client for a certificate and verifies one
 * it sends against them (a client that sends none goes on, to log in with a password); the CAs are read once, at
 * start. Thread-safe.
 */
public final class ServerTls {

    /** The protocols offered, newest first. */
    static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private static final Set<PosixFilePermission> OTHERS = Set.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private final Path certFile;
    private final Path keyFile;
    private final Path clientCaFile;
    private final SSLContext context;
    private final SwappableKeyManager keys;
    private volatile Loaded current;

    /** One read of the two files: the key manager made of them, the leaf, and the files' stamps when read. */
    private record Loaded(X509ExtendedKeyManager keyManager, X509Certificate leaf, List<String> stamps) {}

    private ServerTls(Path certFile, Path keyFile, Path clientCaFile, Loaded first) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.clientCaFile = clientCaFile;
        this.current = first;
        this.keys = new SwappableKeyManager(first.keyManager());
        javax.net.ssl.TrustManager[] clientCas = clientCaFile == null ? null : trustManagers(clientCaFile);
        try {
            this.context = SSLContext.getInstance("TLS");
            context.init(new javax.net.ssl.KeyManager[] {keys}, clientCas, new SecureRandom());
        } catch (GeneralSecurityException e) {
            throw invalid("cannot set up TLS: cert=" + certFile + " key=" + keyFile + " error=" + e.getMessage());
        }
    }

    /** Reads and checks {@code certFile} and {@code keyFile}. */
    public static ServerTls load(Path certFile, Path keyFile) {
        return load(certFile, keyFile, null);
    }

    /**
     * Reads and checks {@code certFile} and {@code keyFile}, and, unless null, the CA certificates (PEM) that client
     * certificates are verified against ({@code clientCaFile}, as PostgreSQL's {@code ssl_ca_file}).
     */
    public static ServerTls load(Path certFile, Path keyFile, Path clientCaFile) {
        return new ServerTls(certFile, keyFile, clientCaFile, read(certFile, keyFile));
    }

    private static javax.net.ssl.TrustManager[] trustManagers(Path caFile) {
        List<X509Certificate> cas = certificates(caFile);
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                store.setCertificateEntry("ca" + i, cas.get(i));
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            return tmf.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw invalid("cannot use the client CA certificates: file=" + caFile + " error=" + e.getMessage());
        }
    }

    /**
     * Reads the two files again if either changed (modification time or size) since they were last read, and uses
     * the new pair from the next handshake on.
     *
     * @return the new certificate's {@link #describe description}, or empty when neither file changed
     * @throws NumacubeException when a file changed but the new pair fails a check (the old one stays in use; the
     *     same files are not tried again until they change again)
     */
    public java.util.Optional<String> reloadIfChanged() {
        List<String> now = stamps(certFile, keyFile);
        Loaded old = current;
        if (now.equals(old.stamps())) {
            return java.util.Optional.empty();
        }
        Loaded next;
        try {
            next = read(certFile, keyFile);
        } catch (NumacubeException e) {
            current = new Loaded(old.keyManager(), old.leaf(), now);
            throw e;
        }
        keys.swap(next.keyManager());
        current = next;
        return java.util.Optional.of(describe());
    }

    /** The SSL context both front ends wrap their sockets with; it presents the current certificate. */
    public SSLContext context() {
        return context;
    }

    /** The server's own certificate, as last read. */
    public X509Certificate leaf() {
        return current.leaf();
    }

    /** The parameters a server socket or engine is set up with: {@link #PROTOCOLS}, the JDK's default suites. */
    public SSLParameters parameters() {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(PROTOCOLS.toArray(new String[0]));
        p.setNeedClientAuth(false);
        p.setWantClientAuth(clientCaFile != null);
        return p;
    }

    /** The certificate's subject and expiry, for the start-up log. */
    public String describe() {
        X509Certificate leaf = leaf();
        return "subject=" + leaf.getSubjectX500Principal().getName() + " expires="
                + leaf.getNotAfter().toInstant()
                + (clientCaFile == null ? "" : "; client certificates verified against " + clientCaFile);
    }

    private static Loaded read(Path certFile, Path keyFile) {
        List<String> stamps = stamps(certFile, keyFile);
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
            for (javax.net.ssl.KeyManager km : kmf.getKeyManagers()) {
                if (km instanceof X509ExtendedKeyManager x) {
                    return new Loaded(x, chain.get(0), stamps);
                }
            }
            throw invalid("no X.509 key manager for the certificate and key: cert=" + certFile + " key=" + keyFile);
        } catch (GeneralSecurityException | IOException e) {
            throw invalid("cannot use the certificate and key: cert=" + certFile + " key=" + keyFile + " error="
                    + e.getMessage());
        }
    }

    /** Each file's modification time and size, or that it is missing: what a replacement changes. */
    private static List<String> stamps(Path... files) {
        List<String> stamps = new java.util.ArrayList<>();
        for (Path f : files) {
            try {
                stamps.add(Files.getLastModifiedTime(f).toMillis() + "/" + Files.size(f));
            } catch (IOException e) {
                stamps.add("unreadable: " + e.getMessage());
            }
        }
        return List.copyOf(stamps);
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
