/**
 * The values of the PostgreSQL protocol: the types numacube speaks ({@link io.numacube.server.pgwire.types.PgType}),
 * rows to send ({@link io.numacube.server.pgwire.types.RowSet}) and the text and binary formats of their values.
 * Depends on the engine's result and schema types and {@code io.numacube.server.query}; the protocol and the catalog
 * build on it.
 */
package io.numacube.server.pgwire.types;
