package io.numacube.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The functions of SCRAM-SHA-256 (RFC 5802 section 2.2, RFC 7677): {@code Hi} is PBKDF2 with HMAC-SHA-256,
 * {@code H} is SHA-256. The JDK's algorithms are present on every Java platform, so a missing one is a broken JVM.
 * Stateless.
 */
final class ScramMath {

    /** The length of every key and hash: SHA-256's output. */
    static final int KEY_BYTES = 32;

    private ScramMath() {}

    /** {@code SaltedPassword := Hi(Normalize(password), salt, i)}; the password SASLprep'd ({@link SaslPrep}). */
    static byte[] saltedPassword(String password, byte[] salt, int iterations) {
        char[] chars = SaslPrep.prepare(password).toCharArray();
        PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, KEY_BYTES * 8);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks PBKDF2WithHmacSHA256", e);
        } finally {
            spec.clearPassword();
            java.util.Arrays.fill(chars, '\0');
        }
    }

    static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks HmacSHA256", e);
        }
    }

    static byte[] hmac(byte[] key, String text) {
        return hmac(key, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM lacks SHA-256", e);
        }
    }

    static byte[] xor(byte[] a, byte[] b) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    /** Equality in time that depends on the lengths only, not on where the bytes differ. */
    static boolean equal(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
