/**
 * The HTTP front end of {@code numacube serve} ({@link io.numacube.server.http.HttpFrontEnd}): JSON over the JDK's
 * HTTP server, answering queries through the shared query service and describing tables and placement. Depends on
 * {@code io.numacube.server.query} and the engine's API; nothing depends on it but the server facade.
 */
package io.numacube.server.http;
