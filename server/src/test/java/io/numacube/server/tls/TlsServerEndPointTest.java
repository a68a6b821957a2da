package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RFC 5929's tls-server-end-point: the certificate's own hash, SHA-256 for MD5 and SHA-1, none for other signatures. */
class TlsServerEndPointTest {

    @TempDir
    Path dir;

    @Test
    void theBindingIsTheHashOfTheCertificateByItsSignaturesHash() throws Exception {
        TestCertificates certs = TestCertificates.make(dir, "RSA");
        X509Certificate cert;
        try (InputStream in = Files.newInputStream(certs.cert())) {
            cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        String algorithm = cert.getSigAlgName();
        String hash = "SHA-" + algorithm.substring(3, 6);
        assertTrue(algorithm.matches("SHA(256|384|512)withRSA"), algorithm);
        assertEquals(hash, TlsServerEndPoint.hashOf(algorithm));
        assertArrayEquals(MessageDigest.getInstance(hash).digest(cert.getEncoded()), TlsServerEndPoint.of(cert));
    }

    @Test
    void md5AndSha1BecomeSha256AndSignaturesWithoutAHashHaveNoBinding() {
        assertEquals("SHA-256", TlsServerEndPoint.hashOf("SHA1withRSA"));
        assertEquals("SHA-256", TlsServerEndPoint.hashOf("MD5withRSA"));
        assertEquals("SHA-384", TlsServerEndPoint.hashOf("SHA384withECDSA"));
        assertEquals("SHA-512", TlsServerEndPoint.hashOf("SHA512withRSA"));
        assertNull(TlsServerEndPoint.hashOf("Ed25519"));
        assertNull(TlsServerEndPoint.hashOf("RSASSA-PSS"));
    }
}
