/**
 * The PostgreSQL frontend/backend protocol 3.0, hand-written ({@link io.numacube.server.pgwire.PgServer}): startup,
 * simple and extended queries, text and binary formats, session statements, cancel requests; parameters bound by
 * substituting checked literals into the statement's text. Depends on {@code io.numacube.server.query} and the
 * engine's API and result types; {@code catalog} below answers system-catalog queries.
 */
package io.numacube.server.pgwire;
