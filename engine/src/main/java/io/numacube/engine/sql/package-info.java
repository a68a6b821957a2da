/**
 * SQL front end: Apache Calcite's parser (only the parser) and {@link io.numacube.engine.sql.SqlBinder}, whose
 * clause and expression binders resolve names and types into a {@code plan.LogicalQuery}. Depends on {@code plan} and
 * {@code schema}.
 */
package io.numacube.engine.sql;
