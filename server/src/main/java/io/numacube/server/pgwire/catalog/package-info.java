/**
 * Answers to the system-catalog queries of psql, pgjdbc and SQLAlchemy ({@link io.numacube.server.pgwire.catalog.PgCatalog}),
 * recognised by shape and answered from the cube's schemas. Depends on {@code io.numacube.server.pgwire}'s row types
 * and the engine's API.
 */
package io.numacube.server.pgwire.catalog;
