package io.numacube.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1} made by the JDK's {@code keytool}, written as
 * the PEM files {@code serve --tls-cert/--tls-key} read ({@code cert.pem}; {@code key.pem}, PKCS#8, mode 600), and a
 * client context that trusts it. For tests.
 *
 * @param cert      the certificate's PEM file
 * @param key       the private key's PEM file
 * @param algorithm the key's algorithm as keytool names it (RSA, EC)
 */
public record TestCertificates(Path cert, Path key, String algorithm) {

    private static final char[] PASSWORD = "changeit".toCharArray();

    /** A new certificate and key of {@code algorithm} in {@code dir}. */
    public static TestCertificates make(Path dir, String algorithm) throws IOException, InterruptedException {
        Path store = dir.resolve("server-" + algorithm + ".p12");
        keytool(store, "server", algorithm, "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1");
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD);
            PrivateKey key = (PrivateKey) ks.getKey("server", PASSWORD);
            Certificate cert = ks.getCertificate("server");
            Path certFile = dir.resolve("cert-" + algorithm + ".pem");
            Path keyFile = dir.resolve("key-" + algorithm + ".pem");
            Files.writeString(certFile, pem("CERTIFICATE", cert.getEncoded()));
            Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
            Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
            return new TestCertificates(certFile, keyFile, algorithm);
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

    /**
     * A client's self-signed certificate for {@code commonName} (RSA), as a PKCS#12 store ({@code client-CN.p12},
     * password {@code changeit}, alias {@code user} as pgjdbc's {@code sslkey} with {@code sslpassword} wants it) and as its
     * certificate's PEM ({@code client-CN.pem}), which serves as the CA file that verifies it.
     *
     * @return the PKCS#12 store; the PEM beside it
     */
    public static Path client(Path dir, String commonName) throws IOException, InterruptedException {
        Path store = dir.resolve("client-" + commonName + ".p12");
        keytool(store, "user", "RSA", "CN=" + commonName, "-keysize", "2048");
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, PASSWORD);
            Files.writeString(
                    clientPem(store),
                    pem("CERTIFICATE", ks.getCertificate("user").getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
        return store;
    }

    /** The PEM of the certificate in a store {@link #client} made. */
    public static Path clientPem(Path store) {
        return store.resolveSibling(store.getFileName().toString().replace(".p12", ".pem"));
    }

    /** A client context that trusts this certificate and presents the client certificate of {@code store}. */
    public SSLContext clientContext(Path store) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD);
        }
        javax.net.ssl.KeyManagerFactory kmf =
                javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASSWORD);
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(kmf.getKeyManagers(), trustManagers(), null);
        return c;
    }

    /** A client context that trusts this certificate only. */
    public SSLContext clientContext() throws IOException, GeneralSecurityException {
        SSLContext c = SSLContext.getInstance("TLS");
        c.init(null, trustManagers(), null);
        return c;
    }

    private javax.net.ssl.TrustManager[] trustManagers() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(cert)) {
            trust.setCertificateEntry(
                    "server",
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf.getTrustManagers();
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Makes a key pair and its self-signed certificate, valid 2 days, in a new PKCS#12 {@code store}. */
    private static void keytool(Path store, String alias, String algorithm, String dname, String... more)
            throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                algorithm,
                "-dname",
                dname,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                new String(PASSWORD)));
        command.addAll(List.of(more));
        run(command.toArray(new String[0]));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
    }
}
