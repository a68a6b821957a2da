package io.numacube.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The server's key manager whose certificate and key can be replaced while it serves: every call goes to the delegate
 * of the moment, so each TLS handshake that starts after {@link #swap} presents the new certificate, while
 * connections already encrypted keep the session they made. Server side only: it chooses no client alias.
 * Thread-safe (the delegate is one atomic reference; a handshake asks the alias, then the chain and key of that alias,
 * so the three come from one delegate unless a swap falls between them, when the old alias is unknown to the new
 * delegate and the handshake fails cleanly, to be retried by the client).
 */
final class SwappableKeyManager extends X509ExtendedKeyManager {

    private final AtomicReference<X509ExtendedKeyManager> delegate;

    SwappableKeyManager(X509ExtendedKeyManager first) {
        this.delegate = new AtomicReference<>(first);
    }

    void swap(X509ExtendedKeyManager next) {
        delegate.set(next);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return delegate.get().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return delegate.get().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return delegate.get().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return delegate.get().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return delegate.get().getPrivateKey(alias);
    }
}
