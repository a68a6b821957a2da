package io.numacube.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client's side of SCRAM-SHA-256 for tests, written from RFC 5802 straight on the JDK's primitives (not the
 * server's code): the first message, the final message with its proof, and the check of the server's signature. ASCII
 * passwords only (no SASLprep). Not thread-safe.
 */
public final class TestScramClient {

    private final String password;
    private final String clientNonce;
    private final String gs2Header;
    private final byte[] bindingData;
    private String clientFirstBare;
    private byte[] serverSignature;

    public TestScramClient(String password, String clientNonce) {
        this(password, clientNonce, "n,,", new byte[0]);
    }

    /** A client sending {@code gs2Header} (e.g. {@code p=tls-server-end-point,,}) and then {@code bindingData}. */
    public TestScramClient(String password, String clientNonce, String gs2Header, byte[] bindingData) {
        this.password = password;
        this.clientNonce = clientNonce;
        this.gs2Header = gs2Header;
        this.bindingData = bindingData.clone();
    }

    public String first() {
        clientFirstBare = "n=,r=" + clientNonce;
        return gs2Header + clientFirstBare;
    }

    /** The client-final-message for {@code serverFirst}. */
    public String last(String serverFirst) throws Exception {
        Map<Character, String> a = attributes(serverFirst);
        byte[] salted = pbkdf2(password, Base64.getDecoder().decode(a.get('s')), Integer.parseInt(a.get('i')));
        byte[] clientKey = hmac(salted, "Client Key".getBytes(StandardCharsets.UTF_8));
        byte[] storedKey = MessageDigest.getInstance("SHA-256").digest(clientKey);
        byte[] header = gs2Header.getBytes(StandardCharsets.UTF_8);
        byte[] binding = java.util.Arrays.copyOf(header, header.length + bindingData.length);
        System.arraycopy(bindingData, 0, binding, header.length, bindingData.length);
        String withoutProof = "c=" + Base64.getEncoder().encodeToString(binding) + ",r=" + a.get('r');
        byte[] authMessage =
                (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(StandardCharsets.UTF_8);
        byte[] signature = hmac(storedKey, authMessage);
        byte[] proof = new byte[clientKey.length];
        for (int i = 0; i < proof.length; i++) {
            proof[i] = (byte) (clientKey[i] ^ signature[i]);
        }
        serverSignature = hmac(hmac(salted, "Server Key".getBytes(StandardCharsets.UTF_8)), authMessage);
        return withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
    }

    /** Whether the server-final-message proves the server knows the verifier. */
    public boolean serverIsGenuine(String serverFinal) {
        return serverFinal.equals("v=" + Base64.getEncoder().encodeToString(serverSignature));
    }

    static Map<Character, String> attributes(String message) {
        Map<Character, String> out = new HashMap<>();
        for (String part : message.split(",")) {
            out.put(part.charAt(0), part.substring(2));
        }
        return out;
    }

    private static byte[] pbkdf2(String password, byte[] salt, int iterations) throws Exception {
        return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256))
                .getEncoded();
    }

    private static byte[] hmac(byte[] key, byte[] data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(data);
    }
}
