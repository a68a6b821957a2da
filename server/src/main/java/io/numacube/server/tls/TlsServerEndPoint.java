package io.numacube.server.tls;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Locale;

/**
 * The {@code tls-server-end-point} channel binding of RFC 5929 section 4.1, as PostgreSQL's SCRAM-SHA-256-PLUS binds
 * to it: the hash of the server's certificate (DER), by the hash function of the certificate's signature algorithm,
 * SHA-256 where that is MD5 or SHA-1. A certificate whose signature names no such hash (Ed25519, RSASSA-PSS) has no
 * binding, as in PostgreSQL: the server then offers SCRAM-SHA-256 only. Stateless.
 */
public final class TlsServerEndPoint {

    private TlsServerEndPoint() {}

    /** The binding data of {@code certificate}, or null when its signature algorithm names no hash to use. */
    public static byte[] of(X509Certificate certificate) {
        String hash = hashOf(certificate.getSigAlgName());
        if (hash == null) {
            return null;
        }
        try {
            return MessageDigest.getInstance(hash).digest(certificate.getEncoded());
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            return null;
        }
    }

    /** The JCA name of the hash of signature algorithm {@code algorithm} (e.g. {@code SHA384withECDSA}), or null. */
    static String hashOf(String algorithm) {
        String a = algorithm.toUpperCase(Locale.ROOT).replace("-", "");
        if (a.startsWith("MD5") || a.startsWith("SHA1WITH") || a.startsWith("SHA256WITH")) {
            return "SHA-256";
        }
        if (a.startsWith("SHA384WITH")) {
            return "SHA-384";
        }
        if (a.startsWith("SHA512WITH")) {
            return "SHA-512";
        }
        if (a.startsWith("SHA224WITH")) {
            return "SHA-224";
        }
        return null;
    }
}
