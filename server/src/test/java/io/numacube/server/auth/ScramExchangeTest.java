package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.numacube.numa.base.NumacubeException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The server's side of SCRAM-SHA-256: RFC 7677's test vector, a real client's exchange, and refusals. */
class ScramExchangeTest {

    // RFC 7677 section 3: user "user", password "pencil"
    private static final String RFC_SALT = "W22ZaJ0SNY7soEsUEjb6gQ==";
    private static final String RFC_CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String RFC_SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String RFC_SERVER_FIRST =
            "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String RFC_CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String RFC_SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    private static UserDirectory rfcUser() {
        ScramVerifier v = ScramVerifier.of("pencil", Base64.getDecoder().decode(RFC_SALT), 4096);
        return UserDirectory.of(List.of(new User("user", Role.READER, v)));
    }

    @Test
    void answersRfc7677sTestVectorMessageForMessage() {
        ScramExchange s = new ScramExchange(rfcUser(), "user", () -> RFC_SERVER_NONCE);
        assertEquals(RFC_SERVER_FIRST, s.serverFirst(RFC_CLIENT_FIRST));
        assertEquals(Optional.of(RFC_SERVER_FINAL), s.serverFinal(RFC_CLIENT_FINAL));
    }

    @Test
    void refusesRfc7677sProofWithOneBitChanged() {
        ScramExchange s = new ScramExchange(rfcUser(), "user", () -> RFC_SERVER_NONCE);
        s.serverFirst(RFC_CLIENT_FIRST);
        byte[] proof = Base64.getDecoder().decode("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
        proof[7] ^= 1;
        String changed = RFC_CLIENT_FINAL.substring(0, RFC_CLIENT_FINAL.indexOf(",p=")) + ",p="
                + Base64.getEncoder().encodeToString(proof);
        assertEquals(Optional.empty(), s.serverFinal(changed));
    }

    @Test
    void aClientWithThePasswordGetsTheServersSignatureAndOneWithoutDoesNot() throws Exception {
        UserDirectory users = TestUsers.directory();
        TestScramClient right = new TestScramClient(TestUsers.WRITER_PASSWORD, "abc123");
        ScramExchange s = new ScramExchange(users, TestUsers.WRITER, new SecureRandom());
        Optional<String> last = s.serverFinal(right.last(s.serverFirst(right.first())));
        assertTrue(last.isPresent());
        assertTrue(right.serverIsGenuine(last.get()));

        TestScramClient wrong = new TestScramClient("not-" + TestUsers.WRITER_PASSWORD, "abc123");
        ScramExchange w = new ScramExchange(users, TestUsers.WRITER, new SecureRandom());
        assertEquals(Optional.empty(), w.serverFinal(wrong.last(w.serverFirst(wrong.first()))));
    }

    @Test
    void theReadersPasswordDoesNotLogInAsTheWriter() throws Exception {
        TestScramClient c = new TestScramClient(TestUsers.READER_PASSWORD, "n0nce");
        ScramExchange s = new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom());
        assertEquals(Optional.empty(), s.serverFinal(c.last(s.serverFirst(c.first()))));
    }

    @Test
    void anUnknownUserGetsAStableSaltAndTheUsualIterationsAndFails() throws Exception {
        UserDirectory users = TestUsers.directory();
        String first = new ScramExchange(users, "mallory", new SecureRandom()).serverFirst("n,,n=,r=x");
        String again = new ScramExchange(users, "mallory", new SecureRandom()).serverFirst("n,,n=,r=y");
        String other = new ScramExchange(users, "trudy", new SecureRandom()).serverFirst("n,,n=,r=z");
        var a = TestScramClient.attributes(first);
        assertEquals(a.get('s'), TestScramClient.attributes(again).get('s'), "the same salt each time, as a user's");
        assertNotEquals(a.get('s'), TestScramClient.attributes(other).get('s'));
        assertEquals(16, Base64.getDecoder().decode(a.get('s')).length);
        assertEquals("4096", a.get('i'));
        for (String password : List.of(TestUsers.WRITER_PASSWORD, "", "mallory")) {
            TestScramClient c = new TestScramClient(password.isEmpty() ? "x" : password, "q");
            ScramExchange s = new ScramExchange(users, "mallory", new SecureRandom());
            assertEquals(Optional.empty(), s.serverFinal(c.last(s.serverFirst(c.first()))));
        }
    }

    @Test
    void channelBindingAnAuthorizationIdentityAndMandatoryExtensionsAreRefused() {
        assertRefused("08P01", "includes channel binding data", "p=tls-server-end-point,,n=,r=abc");
        assertRefused("0A000", "authorization identity", "n,a=admin,n=,r=abc");
        assertRefused("0A000", "unsupported SCRAM extension", "n,,m=ext,n=,r=abc");
    }

    @Test
    void withPlusTheClientsBindingMustBeTheServersCertificateHash() throws Exception {
        byte[] endPoint = new byte[32];
        new SecureRandom().nextBytes(endPoint);
        String header = "p=tls-server-end-point,,";
        TestScramClient right = new TestScramClient(TestUsers.WRITER_PASSWORD, "abc", header, endPoint);
        ScramExchange s = plus(endPoint);
        Optional<String> last = s.serverFinal(right.last(s.serverFirst(right.first())));
        assertTrue(last.isPresent() && right.serverIsGenuine(last.get()), last.toString());

        byte[] other = endPoint.clone();
        other[0] ^= 1;
        TestScramClient relayed = new TestScramClient(TestUsers.WRITER_PASSWORD, "abc", header, other);
        ScramExchange t = plus(endPoint);
        String fin = relayed.last(t.serverFirst(relayed.first()));
        NumacubeException e = assertThrows(NumacubeException.class, () -> t.serverFinal(fin));
        assertEquals("08P01", e.code());
        assertTrue(e.getMessage().contains("does not match the server's certificate"), e.getMessage());
    }

    @Test
    void channelBindingNegotiationIsRefusedWhereItWouldDowngrade() {
        byte[] endPoint = new byte[32];
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> plus(endPoint).serverFirst("n,,n=,r=abc"));
        assertTrue(e.getMessage().contains("selected SCRAM-SHA-256-PLUS, but"), e.getMessage());
        e = assertThrows(NumacubeException.class, () -> plus(endPoint).serverFirst("p=tls-unique,,n=,r=abc"));
        assertTrue(e.getMessage().contains("unsupported SCRAM channel-binding type \"tls-unique\""), e.getMessage());
        ScramExchange withoutPlus =
                new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom(), endPoint, false);
        e = assertThrows(NumacubeException.class, () -> withoutPlus.serverFirst("y,,n=,r=abc"));
        assertEquals("08P01", e.code());
        assertTrue(e.getMessage().contains("channel binding negotiation error"), e.getMessage());
        assertTrue(
                new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom())
                        .serverFirst("y,,n=,r=abc")
                        .startsWith("r=abc"),
                "without TLS a y client is let on");
    }

    private static ScramExchange plus(byte[] endPoint) {
        return new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom(), endPoint, true);
    }

    @Test
    void malformedFirstMessagesAreRefused() {
        assertRefused("08P01", "gs2 header", "x,,n=,r=abc");
        assertRefused("08P01", "gs2 header", "");
        assertRefused("08P01", "does not end", "n,");
        assertRefused("08P01", "expected n=USER,r=NONCE", "n,,r=abc");
        assertRefused("08P01", "nonce", "n,,n=,r=");
        assertRefused("08P01", "nonce", "n,,n=,r=a b");
        assertRefused("08P01", "attribute", "n,,n=,r=abc,junk");
    }

    @Test
    void malformedFinalMessagesAreRefused() throws Exception {
        assertFinalRefused("expected c=", "r=abc,p=xyz");
        assertFinalRefused("expected c=", "c=biws,r=NONCE");
        assertFinalRefused("channel binding", "c=eSws,r=NONCE,p=" + zeros(32));
        assertFinalRefused("channel binding", "c=!!,r=NONCE,p=" + zeros(32));
        assertFinalRefused("nonce does not match", "c=biws,r=NONCEx,p=" + zeros(32));
        assertFinalRefused("not base64", "c=biws,r=NONCE,p=%%%");
        assertFinalRefused("not 32 bytes", "c=biws,r=NONCE,p=" + zeros(31));
        assertFinalRefused("nonce after", "c=biws,p=" + zeros(32));
    }

    @Test
    void eachMessageIsAnsweredOnceInOrder() throws Exception {
        ScramExchange s = new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom());
        assertThrows(IllegalStateException.class, () -> s.serverFinal("c=biws,r=x,p=" + zeros(32)));
        TestScramClient c = new TestScramClient(TestUsers.WRITER_PASSWORD, "abc");
        String last = c.last(s.serverFirst(c.first()));
        assertThrows(IllegalStateException.class, () -> s.serverFirst(c.first()));
        assertTrue(s.serverFinal(last).isPresent());
        assertThrows(IllegalStateException.class, () -> s.serverFinal(last));
    }

    private static void assertRefused(String sqlState, String text, String clientFirst) {
        ScramExchange s = new ScramExchange(TestUsers.directory(), TestUsers.WRITER, new SecureRandom());
        NumacubeException e = assertThrows(NumacubeException.class, () -> s.serverFirst(clientFirst));
        assertEquals(sqlState, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    private static void assertFinalRefused(String text, String clientFinal) {
        ScramExchange s = new ScramExchange(TestUsers.directory(), TestUsers.WRITER, () -> "SERVER");
        String nonce =
                TestScramClient.attributes(s.serverFirst("n,,n=,r=client")).get('r');
        NumacubeException e =
                assertThrows(NumacubeException.class, () -> s.serverFinal(clientFinal.replace("NONCE", nonce)));
        assertEquals("08P01", e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    private static String zeros(int bytes) {
        return Base64.getEncoder().encodeToString(new byte[bytes]);
    }
}
