package io.numacube.server.tls;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The user a TLS client's certificate names: the common name (CN) of its subject, as PostgreSQL's {@code cert}
 * authentication reads it. Only a certificate the handshake verified against the server's client CAs ({@code serve
 * --tls-client-ca}) is ever seen here: without such CAs the server asks for none. Stateless.
 */
public final class ClientCertificate {

    private ClientCertificate() {}

    /** The CN of the verified client certificate of {@code session}, or null when the client sent none (or it has no CN). */
    public static String commonName(SSLSession session) {
        Certificate[] chain;
        try {
            chain = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return null;
        }
        try {
            String cn = null;
            for (Rdn rdn : new LdapName(leaf.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    cn = rdn.getValue().toString();
                }
            }
            return cn;
        } catch (InvalidNameException e) {
            return null;
        }
    }
}
