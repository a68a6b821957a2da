package io.numacube.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** RFC 4013 section 3's examples, with PostgreSQL's rule that a password SASLprep refuses is used as it is. */
class SaslPrepTest {

    @Test
    void rfc4013Examples() {
        assertEquals("IX", SaslPrep.prepare("I\u00ADX"), "soft hyphen mapped to nothing");
        assertEquals("user", SaslPrep.prepare("user"));
        assertEquals("USER", SaslPrep.prepare("USER"), "case is kept");
        assertEquals("a", SaslPrep.prepare("\u00AA"), "NFKC");
        assertEquals("IX", SaslPrep.prepare("\u2168"), "NFKC");
    }

    @Test
    void refusedPasswordsAreUsedAsTheyAre() {
        assertEquals("\u0007", SaslPrep.prepare("\u0007"), "ASCII is never changed, control characters too");
        assertEquals("\u0627\u0031", SaslPrep.prepare("\u0627\u0031"), "bidi rule broken: as given");
        assertEquals("\u00e9\u0007", SaslPrep.prepare("\u00e9\u0007"), "prohibited control character: as given");
        assertEquals("\uE000x", SaslPrep.prepare("\uE000x"), "private use: as given");
    }

    @Test
    void nonAsciiSpacesBecomeSpacesAndOtherTextIsNormalised() {
        assertEquals("a b\u00e9", SaslPrep.prepare("a\u00A0be\u0301"));
        assertEquals("\u0627\u0628", SaslPrep.prepare("\u0627\u0628"), "right to left throughout is fine");
    }
}
