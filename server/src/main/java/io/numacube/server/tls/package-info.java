/**
 * TLS for both front ends of {@code numacube serve}: the server's certificate chain and private key read from PEM
 * files ({@link io.numacube.server.tls.ServerTls}), as PostgreSQL's {@code ssl_cert_file} and {@code ssl_key_file}.
 * Depends on the JDK only.
 */
package io.numacube.server.tls;
