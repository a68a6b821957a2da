/**
 * Answers to the system-catalog queries of psql, pgjdbc and SQLAlchemy ({@link io.numacube.server.pgwire.catalog.PgCatalog}),
 * answered from the cube's schemas exactly or not at all: fixed client queries are recognised whole (KeyConstraints,
 * JdbcKeys, TypeCatalog's), queries of catalogs numacube's tables have no rows in are empty (EmptyCatalogs), and queries
 * over pg_class, pg_namespace, pg_attribute and pg_type (RelationQuery) are read term by term (CatalogCondition,
 * RowOrder) and refused when a term is not read or PostgreSQL would answer rows of its own relations
 * (SystemRelations). Depends on {@code io.numacube.server.pgwire}'s row types and the engine's API.
 */
package io.numacube.server.pgwire.catalog;
