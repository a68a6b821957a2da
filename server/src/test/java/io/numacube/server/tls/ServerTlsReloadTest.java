package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A renewed certificate is served from the next handshake on, through the one SSL context the front ends hold; a bad
 * replacement leaves the old pair in use and is reported once.
 */
class ServerTlsReloadTest {

    @TempDir
    static Path dir;

    private static TestCertificates rsa;
    private static TestCertificates ec;

    @BeforeAll
    static void certificates() throws Exception {
        rsa = TestCertificates.make(dir, "RSA");
        ec = TestCertificates.make(dir, "EC");
    }

    @Test
    void aReplacedPairIsPresentedFromTheNextHandshakeOn() throws Exception {
        Path cert = dir.resolve("live.crt");
        Path key = dir.resolve("live.key");
        install(rsa, cert, key, 1_000);
        ServerTls tls = ServerTls.load(cert, key);
        X509Certificate first = presented(tls);
        assertArrayEquals(leafOf(rsa.cert()).getEncoded(), first.getEncoded());
        assertEquals(Optional.empty(), tls.reloadIfChanged(), "nothing changed");
        install(ec, cert, key, 2_000);
        String described = tls.reloadIfChanged().orElseThrow();
        assertTrue(described.contains("CN=localhost"), described);
        assertArrayEquals(leafOf(ec.cert()).getEncoded(), presented(tls).getEncoded());
        assertArrayEquals(leafOf(ec.cert()).getEncoded(), tls.leaf().getEncoded());
    }

    @Test
    void aBadReplacementKeepsTheOldPairAndIsReportedOnce() throws Exception {
        Path cert = dir.resolve("bad.crt");
        Path key = dir.resolve("bad.key");
        install(rsa, cert, key, 1_000);
        ServerTls tls = ServerTls.load(cert, key);
        Files.copy(ec.cert(), cert, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(cert, FileTime.fromMillis(3_000));
        NumacubeException e = assertThrows(NumacubeException.class, tls::reloadIfChanged);
        assertTrue(e.getMessage().contains("does not belong to the certificate: key=" + key), e.getMessage());
        assertArrayEquals(leafOf(rsa.cert()).getEncoded(), presented(tls).getEncoded(), "the old pair in use");
        assertEquals(Optional.empty(), tls.reloadIfChanged(), "the same bad files are not tried again");
        install(ec, cert, key, 4_000);
        assertTrue(tls.reloadIfChanged().isPresent(), "a good pair later is taken");
        assertArrayEquals(leafOf(ec.cert()).getEncoded(), presented(tls).getEncoded());
    }

    private static void install(TestCertificates pair, Path cert, Path key, long modifiedMillis) throws Exception {
        Files.copy(pair.cert(), cert, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(pair.key(), key, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Files.setLastModifiedTime(cert, FileTime.fromMillis(modifiedMillis));
        Files.setLastModifiedTime(key, FileTime.fromMillis(modifiedMillis));
    }

    private static X509Certificate leafOf(Path pem) throws Exception {
        try (var in = Files.newInputStream(pem)) {
            return (X509Certificate)
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** The certificate a client sees in a handshake with a server socket of {@code tls}'s context. */
    private static X509Certificate presented(ServerTls tls) throws Exception {
        try (SSLServerSocket server =
                (SSLServerSocket) tls.context().getServerSocketFactory().createServerSocket(0)) {
            server.setSSLParameters(tls.parameters());
            Thread accept = Thread.ofVirtual().start(() -> {
                try (SSLSocket s = (SSLSocket) server.accept()) {
                    s.startHandshake();
                    s.getOutputStream().write(1);
                    s.getOutputStream().flush();
                } catch (java.io.IOException e) {
                    // the client saw the handshake fail and says so
                }
            });
            SSLContext client = SSLContext.getInstance("TLS");
            client.init(null, new TrustManager[] {new TrustingEveryServer()}, null);
            try (SSLSocket s = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", server.getLocalPort())) {
                s.startHandshake();
                assertEquals(1, s.getInputStream().read());
                X509Certificate seen = (X509Certificate) s.getSession().getPeerCertificates()[0];
                accept.join();
                return seen;
            }
        }
    }

    /** Trusts any server: this test checks which certificate is presented, not its trust. */
    private static final class TrustingEveryServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
