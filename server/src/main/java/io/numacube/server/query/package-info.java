/**
 * What both front ends of {@code numacube serve} share: running clients' SQL on the cube under admission control and
 * a deadline ({@link io.numacube.server.query.QueryService}, {@link io.numacube.server.query.QueryAdmission},
 * {@link io.numacube.server.query.RunningQuery}), the errors clients see with their SQLSTATE and position
 * ({@link io.numacube.server.query.ClientError}), the lexical reading of SQL text (statements, comments,
 * strings, positions), and parameters {@code $n} bound as literals in the text
 * ({@link io.numacube.server.query.ParameterizedSql}, {@link io.numacube.server.query.SqlLiteral}). Depends on the
 * engine's API and result types; nothing here knows HTTP or the PostgreSQL protocol.
 */
package io.numacube.server.query;
