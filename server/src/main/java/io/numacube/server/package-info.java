/**
 * {@code numacube serve}: a loaded cube answering SQL over HTTP and the PostgreSQL wire protocol
 * ({@link io.numacube.server.NumacubeServer}, configured by {@link io.numacube.server.ServerOptions}). On top of the
 * module: it starts {@code http} and {@code pgwire}, which share {@code query}. Depends on the engine's API; the cli's
 * {@code serve} command loads the cube and starts it.
 */
package io.numacube.server;
