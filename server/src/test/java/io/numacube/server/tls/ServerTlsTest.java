package io.numacube.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading the certificate and key: RSA and EC pairs work; each way a pair can be wrong is refused naming the file. */
class ServerTlsTest {

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
    void rsaAndEcPairsLoad() {
        for (TestCertificates c : new TestCertificates[] {rsa, ec}) {
            ServerTls tls = ServerTls.load(c.cert(), c.key());
            assertTrue(tls.describe().contains("CN=localhost"), tls.describe());
            assertEquals(
                    java.util.List.of("TLSv1.3", "TLSv1.2"),
                    java.util.List.of(tls.parameters().getProtocols()));
        }
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() {
        NumacubeException e = assertThrows(NumacubeException.class, () -> ServerTls.load(rsa.cert(), ec.key()));
        assertTrue(e.getMessage().contains("does not belong to the certificate: key=" + ec.key()), e.getMessage());
    }

    @Test
    void aKeyOthersMayReadIsRefused() throws Exception {
        Path open = dir.resolve("open.pem");
        Files.copy(rsa.key(), open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        NumacubeException e = assertThrows(NumacubeException.class, () -> ServerTls.load(rsa.cert(), open));
        assertTrue(e.getMessage().contains("group or world access: key=" + open), e.getMessage());
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
    }

    @Test
    void anOldStyleOrEncryptedKeyIsRefusedWithTheConversion() throws Exception {
        for (String type : new String[] {"RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY"}) {
            Path old = dir.resolve(type.replace(' ', '-') + ".pem");
            Files.writeString(old, TestCertificates.pem(type, new byte[] {1, 2, 3}));
            Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-------"));
            NumacubeException e = assertThrows(NumacubeException.class, () -> ServerTls.load(rsa.cert(), old));
            assertTrue(e.getMessage().contains("holds a " + type), e.getMessage());
            assertTrue(e.getMessage().contains("openssl pkcs8 -topk8 -nocrypt -in " + old), e.getMessage());
        }
    }

    @Test
    void aMissingOrWrongFileIsNamed() throws Exception {
        Path none = dir.resolve("none.pem");
        NumacubeException missing = assertThrows(NumacubeException.class, () -> ServerTls.load(none, rsa.key()));
        assertTrue(missing.getMessage().contains("does not exist: file=" + none), missing.getMessage());
        Path text = dir.resolve("text.pem");
        Files.writeString(text, "not a certificate\n");
        NumacubeException notCert = assertThrows(NumacubeException.class, () -> ServerTls.load(text, rsa.key()));
        assertTrue(notCert.getMessage().contains("cert=" + text), notCert.getMessage());
        NumacubeException keyIsCert =
                assertThrows(NumacubeException.class, () -> ServerTls.load(rsa.cert(), rsa.cert()));
        assertTrue(keyIsCert.getMessage().contains("key=" + rsa.cert()), keyIsCert.getMessage());
    }
}
