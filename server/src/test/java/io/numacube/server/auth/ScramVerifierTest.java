package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** PostgreSQL's verifier text, and checking passwords against it. */
class ScramVerifierTest {

    @Test
    void theTextIsPostgresqlsAndReadsBackAsTheSameVerifier() {
        ScramVerifier v = ScramVerifier.of("pencil", 4096, new SecureRandom());
        String text = v.text();
        assertTrue(
                text.matches("SCRAM-SHA-256\\$4096:[A-Za-z0-9+/]{22}==\\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}="), text);
        ScramVerifier back = ScramVerifier.parse(text);
        assertEquals(text, back.text());
        assertArrayEquals(v.storedKey(), back.storedKey());
        assertTrue(back.matches("pencil"));
    }

    @Test
    void theKeysAreRfc5802sOfTheSaltedPassword() throws Exception {
        // RFC 7677's salt and password; the keys checked against HMAC and SHA-256 computed here, not by the server
        byte[] salt = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
        ScramVerifier v = ScramVerifier.of("pencil", salt, 4096);
        byte[] salted = javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new javax.crypto.spec.PBEKeySpec("pencil".toCharArray(), salt, 4096, 256))
                .getEncoded();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salted, "HmacSHA256"));
        byte[] clientKey = mac.doFinal("Client Key".getBytes());
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(clientKey), v.storedKey());
        assertArrayEquals(mac.doFinal("Server Key".getBytes()), v.serverKey());
        assertArrayEquals(salt, v.salt());
    }

    @Test
    void onlyThePasswordMatches() {
        ScramVerifier v = ScramVerifier.of("correct horse", 4096, new SecureRandom());
        assertTrue(v.matches("correct horse"));
        assertFalse(v.matches("correct horse "));
        assertFalse(v.matches("Correct horse"));
        assertFalse(v.matches(""));
    }

    @Test
    void twoVerifiersOfOnePasswordHaveDifferentSalts() {
        SecureRandom r = new SecureRandom();
        assertNotEquals(
                ScramVerifier.of("pw", 4096, r).text(),
                ScramVerifier.of("pw", 4096, r).text());
    }

    @Test
    void aNonAsciiPasswordIsSaslPreppedSoItsCompatibilityFormMatches() {
        ScramVerifier v = ScramVerifier.of("\u2168", 4096, new SecureRandom());
        assertTrue(v.matches("IX"), "U+2168 ROMAN NUMERAL NINE is IX after NFKC");
        assertTrue(v.matches("\u2168"));
    }

    @Test
    void badTextIsRefusedSayingWhyWithoutEchoingIt() {
        String stored = Base64.getEncoder().encodeToString(new byte[32]);
        assertRefused("md5", "md5d41d8cd98f00b204e9800998ecf8427e");
        assertRefused("expected SCRAM-SHA-256$ITERATIONS", "SCRAM-SHA-256$4096:c2FsdA==");
        assertRefused("32 bytes", "SCRAM-SHA-256$4096:c2FsdA==$c2FsdA==:" + stored);
        assertRefused("at least 1", "SCRAM-SHA-256$0:c2FsdA==$" + stored + ":" + stored);
        assertRefused("too many iterations", "SCRAM-SHA-256$9999999999:c2FsdA==$" + stored + ":" + stored);
        assertRefused("bad base64", "SCRAM-SHA-256$4096:c2F=sdA==$" + stored + ":" + stored);
        assertRefused("does not start with SCRAM-SHA-256$", "");
    }

    @Test
    void anEmptyPasswordHasNoVerifier() {
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> ScramVerifier.of("", 4096, new SecureRandom()));
        assertEquals("a password must not be empty", e.getMessage());
    }

    @Test
    void itsStringSaysWhatItIsButNotItsKeys() {
        assertEquals(
                "SCRAM-SHA-256 verifier (iterations=4096)",
                ScramVerifier.of("pw", 4096, new SecureRandom()).toString());
    }

    private static void assertRefused(String text, String verifier) {
        NumacubeException e = assertThrows(NumacubeException.class, () -> ScramVerifier.parse(verifier));
        assertTrue(e.getMessage().contains(text), e.getMessage());
        if (verifier.length() > 20) {
            assertFalse(e.getMessage().contains(verifier.substring(verifier.length() - 20)), e.getMessage());
        }
    }
}
