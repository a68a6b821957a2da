/**
 * Writes to the cube for both front ends of {@code numacube serve}: a batch of rows (CSV with a header, JSON lines,
 * or rows an INSERT or COPY gave) is read into a staging with the table's columns, logged where the server is durable,
 * then appended to the table as one atomic version ({@link io.numacube.server.write.WriteService}). Depends on the
 * engine's API and ingest; nothing here knows HTTP or the PostgreSQL protocol.
 */
package io.numacube.server.write;
