package io.numacube.server.tls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An unencrypted PKCS#8 private key in PEM ({@code -----BEGIN PRIVATE KEY-----}) as {@code openssl} writes it, of any
 * algorithm the JDK knows (RSA, EC, EdDSA); the older forms ({@code BEGIN RSA PRIVATE KEY}, {@code BEGIN EC PRIVATE
 * KEY}) and encrypted keys are refused with the {@code openssl} command that converts them. Stateless.
 */
final class PemPrivateKey {

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    private static final List<String> ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS");

    private PemPrivateKey() {}

    static PrivateKey read(Path file, byte[] bytes) {
        Matcher m = BLOCK.matcher(new String(bytes, StandardCharsets.US_ASCII));
        if (!m.find()) {
            throw ServerTls.invalid("the key file is not a PEM private key: key=" + file
                    + " — give an unencrypted PKCS#8 key starting with -----BEGIN PRIVATE KEY-----");
        }
        String type = m.group(1);
        if (!type.equals("PRIVATE KEY")) {
            throw ServerTls.invalid("the key file holds a " + type + ", not an unencrypted PKCS#8 PRIVATE KEY: key="
                    + file + " — convert it with: openssl pkcs8 -topk8 -nocrypt -in " + file + " -out server.key");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(m.group(2));
        } catch (IllegalArgumentException e) {
            throw ServerTls.invalid("the key file's base64 is damaged: key=" + file);
        }
        for (String algorithm : ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw ServerTls.invalid("the key file's key is of no algorithm this JVM knows: key=" + file
                + " — use an RSA, EC or Ed25519 key");
    }

    /** Checks that {@code key} is the private half of {@code leaf}'s public key, by signing and verifying. */
    static void checkPair(Path keyFile, PrivateKey key, Path certFile, X509Certificate leaf) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "RSASSA-PSS" -> "RSASSA-PSS";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "numacube".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance(algorithm);
            if (algorithm.equals("RSASSA-PSS")) {
                signer.setParameter(new java.security.spec.PSSParameterSpec(
                        "SHA-256", "MGF1", java.security.spec.MGF1ParameterSpec.SHA256, 32, 1));
            }
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            signer.initVerify(leaf.getPublicKey());
            signer.update(probe);
            if (signer.verify(signature)) {
                return;
            }
        } catch (GeneralSecurityException e) {
            // a key of another algorithm than the certificate's: the message below
        }
        throw ServerTls.invalid("the private key does not belong to the certificate: key=" + keyFile + " cert="
                + certFile + " — give the key the certificate was made for");
    }
}
