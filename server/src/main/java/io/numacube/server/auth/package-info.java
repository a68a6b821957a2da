/**
 * Who may use {@code numacube serve}: users with a role ({@link io.numacube.server.auth.Role}: reader or writer) and a
 * SCRAM-SHA-256 verifier ({@link io.numacube.server.auth.ScramVerifier}, PostgreSQL's own text), kept in an auth file
 * ({@link io.numacube.server.auth.AuthFile}) and read into a {@link io.numacube.server.auth.UserDirectory}. One
 * verifier serves both front ends: the PostgreSQL protocol runs a SCRAM exchange
 * ({@link io.numacube.server.auth.ScramExchange}), in which the password never travels, and HTTP Basic checks a
 * password against it ({@link io.numacube.server.auth.PasswordCheck}). No password is ever stored. Depends on
 * {@code numa.base} only; nothing here knows HTTP or the PostgreSQL protocol.
 */
package io.numacube.server.auth;
